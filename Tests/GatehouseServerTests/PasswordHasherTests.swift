import GatehouseCore
import Testing

/// argon2id through libargon2 with OWASP's minimum cost.
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

    @Test func samePasswordGetsDifferentSalts() async throws {
        let first = try await hasher.hash("password123")
        let second = try await hasher.hash("password123")
        #expect(first != second)
    }

    @Test func malformedHashNeverMatches() async throws {
        #expect(try await !hasher.verify("password123", against: "not-a-hash"))
        #expect(try await !hasher.verify("password123", against: ""))
    }
}
