#ifndef STOREPRICE_CWORKERTHREAD_H
#define STOREPRICE_CWORKERTHREAD_H

// Threads for StorePrice's bulk runs, started on another core than the thread that starts them.
//
// On Linux, a thread that a busy thread starts is often queued on that thread's core, and waits
// there until the scheduler's next tick moves it (0.15 to 4 ms on a 2-core virtual machine),
// or shares that core for longer. Started with an affinity mask that leaves out the starting
// thread's core, it runs at once on another; it then takes the starting thread's own mask (the
// process's, unless that thread was pinned), so that the scheduler may move it as usual.
// Swift's Glibc module does not expose `pthread_attr_setaffinity_np`, hence this file.
// Elsewhere, threads start as usual.

#ifdef __cplusplus
extern "C" {
#endif

/// A running thread, until `cworkerthread_join` returns.
typedef struct cworkerthread cworkerthread;

/// Starts a thread that calls `body(context)`; NULL when no thread could be started.
cworkerthread *_Nullable cworkerthread_start(void (*_Nonnull body)(void *_Nullable), void *_Nullable context);

/// Waits until the thread's `body` returns, and frees the thread.
void cworkerthread_join(cworkerthread *_Nonnull thread);

#ifdef __cplusplus
}
#endif

#endif
