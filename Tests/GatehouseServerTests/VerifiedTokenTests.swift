@testable import GatehouseCore
import Crypto
import Foundation
import GatehouseSQL
import GatehouseTestSupport
import Logging
import Testing

/// Issue 25: a token whose signature was checked once is answered from memory after, but
/// never past its expiry or its key's retirement.
@Suite struct VerifiedTokenTests {
    static func issuer(_ storage: Storage, refresh: Duration = .milliseconds(1)) async throws -> (TokenIssuer, KeyRing) {
        try await storage.repository.migrate()
        let keys = KeyRing(repository: storage.repository, kek: SymmetricKey(size: .bits256), refreshInterval: refresh)
        try await keys.start(legacyKeyFile: nil, now: Date())
        return (TokenIssuer(keys: keys, issuer: "gatehouse", audience: "app", lifetime: 900), keys)
    }

    static func withStorage(_ body: (Storage) async throws -> Void) async throws {
        let path = try LoopbackServer.temporaryDatabase()
        try await Storage.with(try DatabaseLocation(path), logger: Logger(label: "test")) { try await body($0) }
    }

    @Test func I25_aVerifiedTokenIsKeptAndAForgedOneIsNot() async throws {
        try await Self.withStorage { storage in
            let (issuer, _) = try await Self.issuer(storage, refresh: .seconds(60))
            let now = Date()
            let token = try await issuer.issue(userID: "u1", sessionID: "s1", assurance: SessionAssurance(), now: now)
            #expect(issuer.verified.lookup(token) == nil)
            #expect(try await issuer.verify(token, now: now).sid == "s1")
            #expect(issuer.verified.lookup(token)?.claims.sub.value == "u1")
            let forged = String(token.dropLast(2)) + (token.hasSuffix("AA") ? "AB" : "AA")
            await #expect(throws: GatehouseError.self) { try await issuer.verify(forged, now: now) }
            #expect(issuer.verified.lookup(forged) == nil)
        }
    }

    @Test func I25_aKeptTokenStillExpires() async throws {
        try await Self.withStorage { storage in
            let (issuer, _) = try await Self.issuer(storage, refresh: .seconds(60))
            let now = Date()
            let token = try await issuer.issue(userID: "u1", sessionID: "s1", assurance: SessionAssurance(), now: now)
            _ = try await issuer.verify(token, now: now)
            await #expect(throws: GatehouseError.invalidToken("The access token has expired")) {
                try await issuer.verify(token, now: now.addingTimeInterval(901))
            }
        }
    }

    /// Retiring the key ends a kept token too, once the ring has read the keys again.
    @Test func I25_aKeptTokenOfARetiredKeyIsRefused() async throws {
        try await Self.withStorage { storage in
            let (issuer, keys) = try await Self.issuer(storage)
            let now = Date()
            let token = try await issuer.issue(userID: "u1", sessionID: "s1", assurance: SessionAssurance(), now: now)
            _ = try await issuer.verify(token, now: now)
            let old = try #require(try await storage.repository.activeSigningKeys().first?.kid)
            _ = try await keys.rotate(now: now)
            #expect(try await storage.repository.retireSigningKey(kid: old, at: now))
            try await Task.sleep(for: .milliseconds(5))  // past the 1 ms refresh interval
            await #expect(throws: GatehouseError.self) { try await issuer.verify(token, now: now) }
        }
    }
}
