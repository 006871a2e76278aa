#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One thread's argon2 memory, mapped on its first hash and reused by the next ones.
///
/// Fresh anonymous pages cost a page fault each the first time they are written: for 19 MiB,
/// about a third of a hash, and the kernel's memory-map lock besides. Keeping the mapping
/// makes later hashes fault-free; giving it back after ``idleRelease`` without a hash keeps an
/// idle server small. libargon2 borrows it through its allocator; libsodium, which has no
/// allocator hook, through ``SodiumArgon2id``'s loan (`CSodiumMemory`). Only its own thread
/// uses it (libargon2 fills memory on the calling thread when `threads` is 1; with more lanes
/// its worker threads write into the one region the caller borrowed), so it needs no lock.
public final class Argon2Scratch {
    /// How long a thread keeps its memory without hashing.
    public static let idleRelease: Duration = .seconds(idleSeconds)
    public static let idleSeconds = 30.0

    private var base: UnsafeMutableRawPointer?
    private var size = 0
    private var lastUse = ContinuousClock.now

    public init() {}

    /// At least `bytes` of writable memory, or `nil` when the system has none to map.
    public func borrow(_ bytes: Int) -> UnsafeMutablePointer<UInt8>? {
        lastUse = .now
        if size < bytes {
            release()
            let pointer = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            guard let pointer, pointer != MAP_FAILED else { return nil }
            #if os(Linux)
            _ = madvise(pointer, bytes, MADV_DONTDUMP)  // a core dump leaves the last hash's blocks out
            #endif
            base = pointer
            size = bytes
        }
        return base?.assumingMemoryBound(to: UInt8.self)
    }

    /// Unmaps the memory if no hash has used it for `idle`; returns whether it did.
    @discardableResult
    public func releaseIfIdle(after idle: Duration = idleRelease) -> Bool {
        guard base != nil, ContinuousClock.now - lastUse >= idle else { return false }
        release()
        return true
    }

    /// Bytes mapped now.
    public var mappedBytes: Int { size }

    private func release() {
        if let base { munmap(base, size) }
        base = nil
        size = 0
    }

    deinit { release() }
}
