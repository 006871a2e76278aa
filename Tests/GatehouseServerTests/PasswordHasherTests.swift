@testable import GatehouseCore
import Foundation
import GatehouseHashWorker
import Testing

/// argon2id with OWASP's minimum cost: libsodium for what Gatehouse writes, libargon2 (with
/// reused memory) for stored hashes libsodium cannot compute.
@Suite struct PasswordHasherTests {
    let hasher = PasswordHasher(limits: Fixture.hashing)

    @Test func hashesArePHCEncodedArgon2idAtOWASPCost() async throws {
        let hash = try await hasher.hash("password123")
        #expect(hash.hasPrefix("$argon2id$v=19$m=19456,t=2,p=1$"))
    }

    @Test func verifyAcceptsOnlyTheRightPassword() async throws {
        let hash = try await hasher.hash("pässwörd 😀")
        #expect(try await hasher.verify("pässwörd 😀", against: hash))
        #expect(try await !hasher.verify("passwörd 😀", against: hash))
        #expect(try await !hasher.verify("", against: hash))
    }

    /// Issue 35, point 6: a pending sign-up's password, hashed with the account's salt and cost,
    /// is told apart from the account's own in one computation; one with another salt is ignored.
    @Test func S6_onePasswordComputationTellsTheStoredFromAPendingHashWithTheSameSalt() async throws {
        let stored = try await hasher.hash("the owner's passphrase")
        let pending = try await hasher.hash("a pending passphrase", likeStored: stored)
        #expect(pending.split(separator: "$").dropLast() == stored.split(separator: "$").dropLast(), "same salt and cost")
        #expect(try await hasher.verify("the owner's passphrase", against: stored, orPending: pending) == .stored)
        #expect(try await hasher.verify("a pending passphrase", against: stored, orPending: pending) == .pending)
        #expect(try await hasher.verify("neither of them", against: stored, orPending: pending) == .neither)
        let otherSalt = try await hasher.hash("a pending passphrase")
        #expect(try await hasher.verify("a pending passphrase", against: stored, orPending: otherSalt) == .neither)
    }

    @Test func samePasswordGetsDifferentSalts() async throws {
        let first = try await hasher.hash("password123")
        let second = try await hasher.hash("password123")
        #expect(first != second)
    }

    @Test func malformedHashNeverMatches() async throws {
        #expect(try await !hasher.verify("password123", against: "not-a-hash"))
        #expect(try await !hasher.verify("password123", against: ""))
    }

    /// The two implementations compute the same argon2id, so a hash either made verifies in the other.
    @Test func libsodiumAndLibargon2GiveTheSameHash() throws {
        let salt = Array("sixteen byte slt".utf8)
        for password in ["password123", "", "pässwörd 😀", String(repeating: "x", count: 1024)] {
            let sodium = try Argon2.Sodium.hash(Array(password.utf8), salt: salt, parameters: .owasp, length: 32)
            let reference = try Argon2.Reference.hash(Array(password.utf8), salt: salt, parameters: .owasp, version: 0x13, length: 32)
            #expect(sodium == reference, "\(password.prefix(12))")
        }
    }

    /// What Gatehouse stores goes to libsodium; four lanes or another salt length go to libargon2.
    @Test func onlyOneLaneSixteenByteSaltVersion13HashesGoToLibsodium() {
        let salt = [UInt8](repeating: 1, count: 16)
        #expect(Argon2.Sodium.handles(salt: salt, parameters: .owasp, version: 0x13, length: 32))
        #expect(!Argon2.Sodium.handles(salt: salt, parameters: Argon2Parameters(memoryKiB: 65536, iterations: 3, parallelism: 4), version: 0x13, length: 32))
        #expect(!Argon2.Sodium.handles(salt: salt + [2], parameters: .owasp, version: 0x13, length: 32))
        #expect(!Argon2.Sodium.handles(salt: salt, parameters: .owasp, version: 0x10, length: 32))
    }

    /// A four-lane hash (argon2-cffi's default shape) verifies through libargon2.
    @Test func fourLaneHashesVerify() throws {
        let parameters = Argon2Parameters(memoryKiB: 8192, iterations: 1, parallelism: 4)
        let salt = [UInt8](repeating: 9, count: 16)
        let hash = try Argon2.hash(Array("four lanes".utf8), salt: salt, parameters: parameters, version: 0x13, length: 32)
        let encoded = Argon2.Encoded(parameters: parameters, salt: salt, hash: hash).text
        #expect(encoded.contains("p=4$"))
        #expect(PasswordHasher.verifyNow("four lanes", against: encoded))
        #expect(!PasswordHasher.verifyNow("four lane", against: encoded))
    }

    /// libargon2 maps a thread's memory once, reuses it for the next hash, and gives it back
    /// after the idle time (here zero).
    @Test func libargon2ReusesAThreadsMemoryAndGivesItBackWhenIdle() async throws {
        let mapped = try await onNewThread { () -> [Int] in
            let salt = [UInt8](repeating: 3, count: 16)
            _ = try Argon2.Reference.hash(Array("one".utf8), salt: salt, parameters: .owasp, version: 0x13, length: 32)
            let first = Argon2Scratch.current.mappedBytes
            _ = try Argon2.Reference.hash(Array("two".utf8), salt: salt, parameters: .owasp, version: 0x13, length: 32)
            let second = Argon2Scratch.current.mappedBytes
            let keptWhileBusy = Argon2Scratch.current.releaseIfIdle() ? 1 : 0
            let released = Argon2Scratch.current.releaseIfIdle(after: .zero) ? 1 : 0
            return [first, second, keptWhileBusy, released, Argon2Scratch.current.mappedBytes]
        }
        #expect(mapped == [19 * 1024 * 1024, 19 * 1024 * 1024, 0, 1, 0])
    }

    #if os(Linux)
    /// A hash runs on a hashing thread that the kernel knows by name, so `top -H` and
    /// /proc/PID/task show where the cores go (Foundation's `Thread.name` alone did not).
    @Test func hashesRunOnThreadsTheKernelNamesArgon2id() async throws {
        let name = try await hasher.pool.run(refusable: false) {
            try String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8).trimmingCharacters(in: .newlines)
        }
        #expect(name.hasPrefix("argon2id-"), "\(name)")
    }
    #endif
}
