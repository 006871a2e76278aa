import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The CPU time this process's threads have spent computing argon2id hashes, and how many.
///
/// Two reads of the thread's CPU clock around each hash (about a microsecond against twelve
/// milliseconds). The benchmark reads it around a load phase: the process's CPU per sign-in
/// less its hash's is the server's own cost per sign-in, measured on the same sign-ins, in the
/// same minute (issue 41). Hashes in helper processes (`--hashing-helpers`) are not counted.
package enum HashCPUTime {
    private static let nanoseconds = Atomic<Int>(0)
    private static let hashes = Atomic<Int>(0)

    /// Runs `hash` on this thread and adds the CPU time it took.
    package static func measure<T>(_ hash: () throws -> T) rethrows -> T {
        let start = threadNanoseconds()
        defer {
            nanoseconds.add(threadNanoseconds() - start, ordering: .relaxed)
            hashes.add(1, ordering: .relaxed)
        }
        return try hash()
    }

    /// The CPU seconds spent hashing so far, and the hashes.
    package static var total: (seconds: Double, hashes: Int) {
        (Double(nanoseconds.load(ordering: .relaxed)) / 1e9, hashes.load(ordering: .relaxed))
    }

    private static func threadNanoseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }
}
