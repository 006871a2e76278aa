#if os(Linux)
import CSodiumMemory
import Foundation
@testable import GatehouseCore
import GatehouseHashWorker
import Glibc
import Testing

/// Issue 41: libsodium's argon2id hashes in a thread's reused memory, lent to it through the
/// interposed `mmap`, instead of faulting in 19 MiB of fresh pages every hash.
@Suite struct SodiumMemoryTests {
    let salt = Array("sixteen byte slt".utf8)
    /// 19 MiB of 4 KiB pages: what a hash in fresh memory faults in.
    let pagesOfAHash = 19 * 1024 * 1024 / 4096

    @Test func theTestProcessesMmapIsTheLendingOne() {
        #expect(SodiumArgon2id.lends)
    }

    /// The second hash in a scratch faults in almost nothing; a hash without one faults in
    /// every page of its 19 MiB.
    @Test func aHashInLentMemoryFaultsInNoFreshPages() async throws {
        let faults = try await onNewThread { () -> (lent: Int, fresh: Int) in
            let scratch = Argon2Scratch()
            _ = try hash("warm-up", scratch: scratch)
            let lent = try Self.pageFaults { _ = try hash("lent", scratch: scratch) }
            let fresh = try Self.pageFaults { _ = try hash("fresh", scratch: nil) }
            return (lent, fresh)
        }
        #expect(faults.lent < pagesOfAHash / 20, "\(faults)")
        #expect(faults.fresh >= pagesOfAHash, "\(faults)")
    }

    @Test func aHashInLentMemoryIsLibargon2sHash() throws {
        let scratch = Argon2Scratch()
        for password in ["password123", "", "pässwörd 😀"] {
            let lent = try hash(password, scratch: scratch)
            let reference = try Argon2.Reference.hash(Array(password.utf8), salt: salt, parameters: .owasp, version: 0x13, length: 32)
            #expect(lent == reference, "\(password)")
        }
    }

    /// The memory a hash leaves its blocks in is kept for the next hash, out of core dumps.
    @Test func lentMemoryIsLeftOutOfCoreDumps() throws {
        let scratch = Argon2Scratch()
        _ = try hash("a secret passphrase", scratch: scratch)
        let bytes = Int(Argon2Parameters.owasp.memoryKiB) * 1024
        let memory = try #require(scratch.borrow(bytes))
        #expect(UnsafeBufferPointer(start: memory, count: bytes).contains { $0 != 0 }, "the hash ran in it")
        let address = UInt(bitPattern: memory)
        let file = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        let smaps = String(decoding: file.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        let header = try #require(smaps.firstIndex { line in  // the mapping that holds it: "start-end perms …"
            let range = line.split(separator: " ").first?.split(separator: "-").compactMap { UInt($0, radix: 16) } ?? []
            return range.count == 2 && range[0] <= address && address < range[1]
        })
        let flags = try #require(smaps[header...].first { $0.hasPrefix("VmFlags:") })
        #expect(flags.split(separator: " ").contains("dd"), "\(flags)")
    }

    /// A loan serves one private anonymous read-write mapping that fits; every other mapping,
    /// and every one outside a loan, is the system's.
    @Test func aLoanServesOneFittingMappingAndPassesTheRestThrough() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let scratch = Argon2Scratch()
        let base = try #require(scratch.borrow(4 * page))
        func map(_ length: Int, _ protection: Int32) -> UnsafeMutableRawPointer? {
            mmap(nil, length, protection, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        }
        let outside = try #require(map(2 * page, PROT_READ | PROT_WRITE))
        #expect(outside != UnsafeMutableRawPointer(base))
        #expect(munmap(outside, 2 * page) == 0)

        base.initialize(repeating: 7, count: 4 * page)
        gatehouse_memory_lend(base, 4 * page)
        let tooLarge = try #require(map(8 * page, PROT_READ | PROT_WRITE))
        let readOnly = try #require(map(2 * page, PROT_READ))
        let lent = try #require(map(2 * page, PROT_READ | PROT_WRITE))
        let second = try #require(map(2 * page, PROT_READ | PROT_WRITE))
        #expect(tooLarge != UnsafeMutableRawPointer(base) && readOnly != UnsafeMutableRawPointer(base))
        #expect(lent == UnsafeMutableRawPointer(base))
        #expect(second != UnsafeMutableRawPointer(base), "the loan serves one mapping at a time")
        #expect(munmap(lent, 2 * page) == 0)
        #expect(UnsafeBufferPointer(start: base, count: 4 * page).allSatisfy { $0 == 7 }, "kept, still mapped")
        for (pointer, length) in [(tooLarge, 8 * page), (readOnly, 2 * page), (second, 2 * page)] {
            #expect(munmap(pointer, length) == 0)
        }
        #expect(gatehouse_memory_end_loan() == 1)
        #expect(gatehouse_memory_end_loan() == 0, "ended")
        #expect(scratch.mappedBytes == 4 * page, "the scratch still holds its memory")
    }

    /// A hashing thread makes its scratch when it starts, and libsodium hashes in it.
    @Test func hashingThreadsHashInTheirOwnScratch() async throws {
        var limits = HashingLimits(queueDepth: 8)
        limits.threads = 1
        let pool = HashingPool.shared(limits)
        let (mapped, faults) = try await pool.run(refusable: false) { () -> (Int, Int) in
            _ = try Argon2.Sodium.hashHere(Array("first".utf8), salt: salt, parameters: .owasp, length: 32)
            let faults = try Self.pageFaults {
                _ = try Argon2.Sodium.hashHere(Array("second".utf8), salt: salt, parameters: .owasp, length: 32)
            }
            return (Argon2Scratch.existing?.mappedBytes ?? 0, faults)
        }
        #expect(mapped == 19 * 1024 * 1024)
        #expect(faults < pagesOfAHash / 20, "\(faults)")
    }

    /// The benchmark's split of a sign-in's CPU: each hash's own CPU time is added to
    /// ``HashCPUTime`` (other tests' hashes may add theirs meanwhile, never less).
    @Test func eachHashsCPUTimeIsAddedToTheProcesssHashingTotal() throws {
        let before = HashCPUTime.total
        let thread = Self.threadCPUSeconds()
        _ = try hash("counted", scratch: Argon2Scratch())
        let spent = Self.threadCPUSeconds() - thread
        let after = HashCPUTime.total
        #expect(after.hashes - before.hashes >= 1)
        #expect(after.seconds - before.seconds >= spent * 0.5, "\(after.seconds - before.seconds) s counted, \(spent) s spent")
        #expect(spent > 0)
    }

    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private func hash(_ password: String, scratch: Argon2Scratch?) throws -> [UInt8] {
        try Argon2.Sodium.hashHere(Array(password.utf8), salt: salt, parameters: .owasp, length: 32, scratch: scratch)
    }

    /// The calling thread's minor page faults while `body` runs.
    private static func pageFaults(_ body: () throws -> Void) throws -> Int {
        func faults() -> Int {
            var usage = rusage()
            _ = getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD
            return usage.ru_minflt
        }
        let before = faults()
        try body()
        return faults() - before
    }
}
#endif
