import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One thread's argon2 memory, mapped on its first hash and reused by the next ones.
///
/// Fresh anonymous pages cost a page fault each the first time they are written: for 19 MiB,
/// about a third of a hash. Keeping the mapping makes later hashes fault-free; giving it back
/// after ``idleRelease`` without a hash keeps an idle server small. Only its own thread uses
/// it (libargon2 fills memory on the calling thread when `threads` is 1; with more lanes its
/// worker threads write into the one region the caller borrowed), so it needs no lock.
final class Argon2Scratch {
    /// How long a thread keeps its memory without hashing.
    static let idleRelease: Duration = .seconds(idleSeconds)
    static let idleSeconds = 30.0

    private var base: UnsafeMutableRawPointer?
    private var size = 0
    private var lastUse = ContinuousClock.now

    /// The calling thread's scratch.
    static var current: Argon2Scratch {
        let dictionary = Thread.current.threadDictionary
        if let scratch = dictionary[key] as? Argon2Scratch { return scratch }
        let scratch = Argon2Scratch()
        dictionary[key] = scratch
        return scratch
    }

    /// The current thread's scratch, if it has one.
    static var existing: Argon2Scratch? { Thread.current.threadDictionary[key] as? Argon2Scratch }

    private static let key = "gatehouse.argon2.scratch"

    /// At least `bytes` of writable memory, or `nil` when the system has none to map.
    func borrow(_ bytes: Int) -> UnsafeMutablePointer<UInt8>? {
        lastUse = .now
        if size < bytes {
            release()
            let pointer = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            guard let pointer, pointer != MAP_FAILED else { return nil }
            base = pointer
            size = bytes
        }
        return base?.assumingMemoryBound(to: UInt8.self)
    }

    /// Unmaps the memory if no hash has used it for `idle`; returns whether it did.
    @discardableResult
    func releaseIfIdle(after idle: Duration = idleRelease) -> Bool {
        guard base != nil, ContinuousClock.now - lastUse >= idle else { return false }
        release()
        return true
    }

    /// Bytes mapped now.
    var mappedBytes: Int { size }

    private func release() {
        if let base { munmap(base, size) }
        base = nil
        size = 0
    }

    deinit { release() }
}
