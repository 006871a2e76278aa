import Crypto
import Foundation
import JWTKit
import NIOConcurrencyHelpers

/// The signing keys every instance shares, read from the database and kept fresh.
///
/// The newest active key signs; every active key verifies. Keys are re-read every
/// ``refreshInterval`` seconds, and at once (at most once a second) when a token names a `kid`
/// this instance has not seen, so a key another instance just made verifies everywhere, and a
/// retired key stops verifying within one interval.
package actor KeyRing {
    package let repository: any SigningKeyRepository
    package let kek: SymmetricKey
    package let refreshInterval: Duration
    private(set) var keys: [SigningKey] = []
    private var collection = JWTKeyCollection()
    private var loadedAt = ContinuousClock.now
    /// The active `kid`s and when they were read, for ``isActive(_:)`` without an actor hop.
    private nonisolated let active = NIOLockedValueBox((kids: Set<String>(), loadedAt: ContinuousClock.now))

    package init(repository: any SigningKeyRepository, kek: SymmetricKey, refreshInterval: Duration) {
        self.repository = repository
        self.kek = kek
        self.refreshInterval = refreshInterval
    }

    /// Loads the keys, making the first one if there is none (importing an earlier release's
    /// key file when there is one, so its tokens keep verifying).
    package func start(legacyKeyFile: String?, now: Date) async throws {
        if try await repository.activeSigningKeys().isEmpty {
            let key = try legacyKeyFile.flatMap { try SigningKey.legacy(at: $0, importedAt: now) } ?? SigningKey.generate(at: now)
            try await repository.insertSigningKey(try key.record(sealedWith: kek))
        }
        try await reload()
    }

    /// Adds a new key that every instance will sign with from its next refresh.
    package func rotate(now: Date) async throws -> SigningKey {
        let key = try SigningKey.generate(at: now)
        try await repository.insertSigningKey(try key.record(sealedWith: kek))
        try await reload()
        return key
    }

    /// The key collection and the `kid` to sign with.
    package func signer() async throws -> (JWTKeyCollection, String) {
        try await reloadIfStale()
        guard let newest = keys.last else { throw KeyEncryptionKeyError.missing }
        return (collection, newest.kid)
    }

    /// The collection that verifies `kid`, or `nil` when no active key has it.
    package func verifier(for kid: String) async throws -> JWTKeyCollection? {
        try await reloadIfStale()
        if !keys.contains(where: { $0.kid == kid }), ContinuousClock.now - loadedAt > .seconds(1) {
            try await reload()
        }
        return keys.contains(where: { $0.kid == kid }) ? collection : nil
    }

    /// Whether `kid` is active, from the last read of the keys; `nil` when that read is older
    /// than ``refreshInterval`` (ask ``verifier(for:)``, which reads them again).
    package nonisolated func isActive(_ kid: String) -> Bool? {
        active.withLockedValue { active in
            ContinuousClock.now - active.loadedAt > refreshInterval ? nil : active.kids.contains(kid)
        }
    }

    /// Every active public key, as the JWKS document publishes them.
    package func jwks() async throws -> JWKS {
        try await reloadIfStale()
        return JWKS(keys: keys.map(\.jwk))
    }

    private func reloadIfStale() async throws {
        if ContinuousClock.now - loadedAt > refreshInterval { try await reload() }
    }

    private func reload() async throws {
        let loaded = try await repository.activeSigningKeys().map { try SigningKey(record: $0, kek: kek) }
        let fresh = JWTKeyCollection()
        for key in loaded { await fresh.add(ecdsa: key.privateKey, kid: JWKIdentifier(string: key.kid)) }
        keys = loaded
        collection = fresh
        loadedAt = .now
        active.withLockedValue { $0 = (Set(loaded.map(\.kid)), loadedAt) }
    }
}
