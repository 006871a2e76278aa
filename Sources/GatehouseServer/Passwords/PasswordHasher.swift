import CArgon2
import NIOPosix

/// Hashes and verifies passwords with argon2id (libargon2), always off the event loop.
///
/// Hashes are PHC strings (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`), so parameters can be
/// raised later without breaking stored hashes. Each call runs on a `NIOThreadPool`, because a
/// hash takes tens of milliseconds and would otherwise stall every connection on that loop.
public struct PasswordHasher: Sendable {
    /// The cost of new hashes.
    public let parameters: Argon2Parameters
    let threadPool: NIOThreadPool
    static let saltLength = 16
    static let hashLength = 32

    /// Creates a hasher.
    /// - Parameters:
    ///   - parameters: the cost of new hashes; OWASP's minimum by default.
    ///   - threadPool: where hashing runs.
    public init(parameters: Argon2Parameters = .owasp, threadPool: NIOThreadPool = .singleton) {
        self.parameters = parameters
        self.threadPool = threadPool
    }

    /// Hashes a password with a fresh random salt.
    public func hash(_ password: String) async throws -> String {
        let parameters = parameters
        return try await threadPool.runIfActive { try Self.hashNow(password, parameters: parameters) }
    }

    /// Whether a password matches a PHC hash; a malformed hash never matches.
    public func verify(_ password: String, against encoded: String) async throws -> Bool {
        try await threadPool.runIfActive { Self.verifyNow(password, against: encoded) }
    }

    static func hashNow(_ password: String, parameters: Argon2Parameters) throws -> String {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<saltLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let length = argon2_encodedlen(
            parameters.iterations, parameters.memoryKiB, parameters.parallelism,
            UInt32(saltLength), UInt32(hashLength), Argon2_id
        )
        var encoded = [CChar](repeating: 0, count: length)
        let password = Array(password.utf8)
        let status = argon2id_hash_encoded(
            parameters.iterations, parameters.memoryKiB, parameters.parallelism,
            password, password.count, salt, salt.count, hashLength, &encoded, length
        )
        guard status == ARGON2_OK.rawValue else { throw Argon2Error(code: status) }
        return String(decoding: encoded.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func verifyNow(_ password: String, against encoded: String) -> Bool {
        let password = Array(password.utf8)
        return argon2id_verify(encoded, password, password.count) == ARGON2_OK.rawValue
    }
}

/// libargon2 refused to hash.
public struct Argon2Error: Error, CustomStringConvertible {
    public let code: Int32
    public var description: String { String(cString: argon2_error_message(code)) }
}
