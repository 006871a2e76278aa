@testable import GatehouseCore
import Foundation
import GatehouseHashWorker
import Testing
#if canImport(Glibc)
import Glibc
#endif

#if os(Linux)
/// Issue 41: each hashing thread hands its libsodium hashes to a `gatehouse-hasher` process of
/// its own, restarts it after a failure without losing the hash, and stops it when idle.
@Suite struct HashWorkerTests {
    let salt = Array("sixteen byte slt".utf8)

    private func hashedHere(_ password: String) throws -> [UInt8] {
        try Argon2.Sodium.hashHere(Array(password.utf8), salt: salt, parameters: .owasp, length: 32)
    }

    @Test func theHelperIsBuiltBesideTheExecutable() {
        #expect(HashWorker.executable?.hasSuffix("/gatehouse-hasher") == true, "\(HashWorker.executable ?? "none")")
    }

    @Test func aHashingThreadsHashRunsInItsHelperProcessAndMatchesLibsodiumHere() async throws {
        let (hash, helper) = try await onHashingThread { () -> ([UInt8], String) in
            let hash = try Argon2.Sodium.hash(Array("pässwörd 😀".utf8), salt: salt, parameters: .owasp, length: 32)
            let pid = try present(HashWorker.existing?.processID)
            let name = try String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8).trimmingCharacters(in: .newlines)
            return (hash, name)
        }
        #expect(helper == "gatehouse-hashe", "the kernel keeps 15 bytes of the name")
        #expect(hash == (try hashedHere("pässwörd 😀")))
    }

    @Test func aHelperKilledBetweenHashesLosesNoHashAndIsReplaced() async throws {
        let outcome = try await onHashingThread { () -> [Bool] in
            let worker = try present(HashWorker.existing)
            let expected = try hashedHere("one")
            let first = try Argon2.Sodium.hash(Array("one".utf8), salt: salt, parameters: .owasp, length: 32)
            let killed = try present(worker.processID)
            kill(killed, SIGKILL)
            let second = try Argon2.Sodium.hash(Array("one".utf8), salt: salt, parameters: .owasp, length: 32)
            let third = try Argon2.Sodium.hash(Array("one".utf8), salt: salt, parameters: .owasp, length: 32)
            let replacement = worker.processID
            return [first == expected, second == expected, third == expected, replacement != nil, replacement != killed]
        }
        #expect(outcome == [true, true, true, true, true])
    }

    @Test func anIdleHelperIsStoppedAndReaped() async throws {
        let (keptWhileBusy, stopped, gone) = try await onHashingThread { () -> (Bool, Bool, Bool) in
            _ = try Argon2.Sodium.hash(Array("idle".utf8), salt: salt, parameters: .owasp, length: 32)
            let worker = try present(HashWorker.existing)
            let pid = try present(worker.processID)
            let keptWhileBusy = !worker.stopIfIdle()
            let stopped = worker.stopIfIdle(after: .zero)
            errno = 0
            let gone = kill(pid, 0) == -1 && errno == ESRCH
            return (keptWhileBusy, stopped && worker.processID == nil, gone)
        }
        #expect(keptWhileBusy && stopped && gone)
    }

    @Test func onlyAPoolAskedForHelperProcessesHasThem() async throws {
        #expect(!HashingLimits().helperProcesses, "off by default")
        var limits = HashingLimits(queueDepth: 7)
        let without = try await HashingPool.shared(limits).run(refusable: false) { HashWorker.existing != nil }
        limits.helperProcesses = true
        let with = try await HashingPool.shared(limits).run(refusable: false) { HashWorker.existing != nil }
        #expect(!without && with)
    }

    @Test func requestsCrossTheSocketIntactAndOversizedOnesAreRefused() throws {
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[0]); close(pair[1]) }
        let request = HashRequest(password: Array("pässwörd".utf8), salt: salt, iterations: 2, memoryKiB: 19456, length: 32)
        #expect(Descriptor.write(pair[0], request.encoded))
        #expect(HashRequest.read(from: pair[1]) == request)
        let oversized = HashRequest(
            password: [UInt8](repeating: 1, count: HashRequest.maximumPassword + 1), salt: salt, iterations: 2, memoryKiB: 19456, length: 32
        )
        #expect(Descriptor.write(pair[0], Array(oversized.encoded.prefix(20))))
        #expect(HashRequest.read(from: pair[1]) == nil)
    }

    /// `value`, or a thrown error (`#require` records nothing off a test's own task).
    private func present<T>(_ value: T?) throws -> T {
        guard let value else { throw Missing() }
        return value
    }

    private struct Missing: Error {}

    /// Runs `body` on a new thread with a hashing worker, as a hashing pool's thread has.
    private func onHashingThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await onNewThread {
            HashWorker.attach()
            defer { HashWorker.existing?.stopIfIdle(after: .zero) }
            return try body()
        }
    }
}
#endif
