import Foundation

/// Signing-key management for operators: list, rotate, retire (`gatehouse keys …`).
///
/// Rotation adds a key that every instance signs with from its next key refresh; tokens signed
/// with older keys keep verifying until those keys are retired. Retiring refuses the newest key
/// (something must sign) and a key whose successor is younger than the access-token lifetime,
/// since tokens it signed may still be in use.
public struct KeyAdministration: Sendable {
    package let repository: any SigningKeyRepository
    package let kek: String?
    package let location: DatabaseLocation
    package let clock: @Sendable () -> Date

    public init(
        repository: any SigningKeyRepository, keyEncryptionKey: String?, location: DatabaseLocation,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.repository = repository
        kek = keyEncryptionKey
        self.location = location
        self.clock = clock
    }

    /// The active keys, oldest first; the last one signs.
    public func list() async throws -> [SigningKeyRecord] {
        try await repository.activeSigningKeys()
    }

    /// Adds a new signing key and returns its `kid`.
    public func rotate() async throws -> String {
        let key = try SigningKey.generate(at: clock())
        try await repository.insertSigningKey(try key.record(sealedWith: KeyEncryptionKey.resolve(kek, location: location)))
        return key.kid
    }

    /// Retires `kid` once no token it signed can still be live.
    /// - Parameter accessTokenLifetime: the servers' access-token lifetime in seconds.
    public func retire(kid: String, accessTokenLifetime: Int, force: Bool = false) async throws {
        let keys = try await repository.activeSigningKeys()
        guard let index = keys.firstIndex(where: { $0.kid == kid }) else { throw KeyAdministrationError.noSuchKey(kid) }
        guard index < keys.count - 1 else { throw KeyAdministrationError.signingKey(kid) }
        let successorAge = clock().timeIntervalSince(keys[index + 1].createdAt)
        if !force, successorAge < TimeInterval(accessTokenLifetime) {
            throw KeyAdministrationError.tooSoon(kid, wait: Int((TimeInterval(accessTokenLifetime) - successorAge).rounded(.up)))
        }
        guard try await repository.retireSigningKey(kid: kid, at: clock()) else { throw KeyAdministrationError.noSuchKey(kid) }
    }
}

/// Why a key operation was refused, in one line.
public enum KeyAdministrationError: Error, Equatable, CustomStringConvertible {
    case noSuchKey(String)
    case signingKey(String)
    case tooSoon(String, wait: Int)

    public var description: String {
        switch self {
        case .noSuchKey(let kid): "no active key \(kid)"
        case .signingKey(let kid): "\(kid) is the newest key, which signs; rotate first"
        case .tooSoon(let kid, let wait):
            "tokens signed with \(kid) may still be live; retire it in \(wait) s (or --force)"
        }
    }
}
