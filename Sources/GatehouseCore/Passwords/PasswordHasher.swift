import CArgon2

/// Hashes and verifies passwords with argon2id (``Argon2``), on the hashing pool's threads.
///
/// Hashes are PHC strings (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`), so parameters can be
/// raised later without breaking stored hashes. A hash takes tens of milliseconds, so it never
/// runs on an event loop; see ``HashingPool`` for how it stays out of other requests' way.
public struct PasswordHasher: Sendable {
    /// The cost of new hashes.
    public let parameters: Argon2Parameters
    package let pool: HashingPool
    package static let saltLength = 16
    package static let hashLength = 32

    /// Creates a hasher.
    /// - Parameters:
    ///   - parameters: the cost of new hashes; OWASP's minimum by default.
    ///   - limits: the hashing threads and queue.
    public init(parameters: Argon2Parameters = .owasp, limits: HashingLimits = HashingLimits()) {
        self.init(parameters: parameters, pool: .shared(limits))
    }

    package init(parameters: Argon2Parameters, pool: HashingPool) {
        self.parameters = parameters
        self.pool = pool
    }

    /// Hashes a password with a fresh random salt; waits for a thread however long the queue.
    public func hash(_ password: String) async throws -> String {
        let parameters = parameters
        return try await pool.run(refusable: false) { try Self.hashNow(password, parameters: parameters) }
    }

    /// Whether a password matches a PHC hash; a malformed hash never matches.
    ///
    /// Throws ``GatehouseError/overloaded(retryAfter:)`` when the hashing queue is full.
    public func verify(_ password: String, against encoded: String) async throws -> Bool {
        try await pool.run(refusable: true) { Self.verifyNow(password, against: encoded) }
    }

    package static func hashNow(_ password: String, parameters: Argon2Parameters) throws -> String {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<saltLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let version = UInt32(ARGON2_VERSION_13.rawValue)
        let hash = try Argon2.hash(Array(password.utf8), salt: salt, parameters: parameters, version: version, length: hashLength)
        return Argon2.Encoded(version: version, parameters: parameters, salt: salt, hash: hash).text
    }

    package static func verifyNow(_ password: String, against encoded: String) -> Bool {
        guard let stored = Argon2.Encoded(encoded),
              let computed = try? Argon2.hash(
                  Array(password.utf8), salt: stored.salt, parameters: stored.parameters, version: stored.version,
                  length: stored.hash.count
              )
        else { return false }
        return ConstantTime.equal(computed, stored.hash)
    }
}

/// argon2id could not hash (out of memory, or parameters out of range).
public struct Argon2Error: Error, CustomStringConvertible {
    public let code: Int32
    public var description: String { String(cString: argon2_error_message(code)) }
}
