// See ICU.swift for why CICU is imported implementation-only.
import CICU

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One formatted-number result per thread, shared by every formatter the thread uses.
///
/// A result is not thread-safe but is not tied to a formatter, so a thread-local one makes
/// formatting lock-free. It is closed when its thread exits.
enum ThreadResult {
    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        let created = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            cicu_closeResult(OpaquePointer(pointer))
            #else
            if let pointer { cicu_closeResult(OpaquePointer(pointer)) }
            #endif
        }
        return created == 0 ? key : nil
    }()

    /// This thread's result, opened on first use.
    static func current() throws(ICUError) -> OpaquePointer {
        guard let key else { throw ICUError(CICU_MEMORY_ALLOCATION_ERROR) }
        if let existing = pthread_getspecific(key) {
            return OpaquePointer(existing)
        }
        var status = CICU_ZERO_ERROR
        guard let result = cicu_openResult(&status), status <= CICU_ZERO_ERROR else {
            throw ICUError(status > 0 ? status : CICU_MEMORY_ALLOCATION_ERROR)
        }
        pthread_setspecific(key, UnsafeRawPointer(result))
        return result
    }
}
