#if defined(__linux__)
#define _GNU_SOURCE
#include <sched.h>
#endif

#include "cworkerthread.h"

#include <pthread.h>
#include <stdlib.h>

struct cworkerthread {
    pthread_t id;
    void (*body)(void *);
    void *context;
#if defined(__linux__)
    // The starting thread's mask, for the new thread to take once it runs; only when it
    // started without the starting thread's core.
    int restore;
    cpu_set_t allowed;
#endif
};

static void *run(void *argument) {
    struct cworkerthread *thread = argument;
#if defined(__linux__)
    if (thread->restore) {
        (void)sched_setaffinity(0, sizeof thread->allowed, &thread->allowed);
    }
#endif
    thread->body(thread->context);
    return NULL;
}

cworkerthread *cworkerthread_start(void (*body)(void *), void *context) {
    struct cworkerthread *thread = calloc(1, sizeof *thread);
    if (thread == NULL) {
        return NULL;
    }
    thread->body = body;
    thread->context = context;
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) != 0) {
        free(thread);
        return NULL;
    }
#if defined(__linux__)
    int here = sched_getcpu();
    if (here >= 0 && sched_getaffinity(0, sizeof thread->allowed, &thread->allowed) == 0
        && CPU_ISSET(here, &thread->allowed) && CPU_COUNT(&thread->allowed) > 1) {
        cpu_set_t elsewhere = thread->allowed;
        CPU_CLR(here, &elsewhere);
        thread->restore = pthread_attr_setaffinity_np(&attributes, sizeof elsewhere, &elsewhere) == 0;
    }
#endif
    int status = pthread_create(&thread->id, &attributes, run, thread);
    pthread_attr_destroy(&attributes);
#if defined(__linux__)
    if (status != 0 && thread->restore) {
        // The mask was refused (a core gone offline meanwhile): start it as usual.
        thread->restore = 0;
        status = pthread_create(&thread->id, NULL, run, thread);
    }
#endif
    if (status != 0) {
        free(thread);
        return NULL;
    }
    return thread;
}

void cworkerthread_join(cworkerthread *thread) {
    (void)pthread_join(thread->id, NULL);
    free(thread);
}
