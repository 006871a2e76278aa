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

    /// Hashes a password with the salt and cost of a stored hash (fresh ones if it is not one),
    /// so that one computation can later be compared with both (``verify(_:against:orPending:)``).
    package func hash(_ password: String, likeStored stored: String?) async throws -> String {
        guard let stored = stored.flatMap(Argon2.Encoded.init) else { return try await hash(password) }
        return try await pool.run(refusable: false) {
            let hash = try Argon2.hash(
                Array(password.utf8), salt: stored.salt, parameters: stored.parameters, version: stored.version, length: stored.hash.count
            )
            return Argon2.Encoded(version: stored.version, parameters: stored.parameters, salt: stored.salt, hash: hash).text
        }
    }

    /// Which of two hashes a password matches, with one computation: the stored one, or a
    /// pending one made with its salt and cost (``hash(_:likeStored:)``); a pending hash with
    /// another salt is not looked at, so the cost never depends on whether there is one.
    ///
    /// Throws ``GatehouseError/overloaded(retryAfter:)`` when the hashing queue is full.
    package func verify(_ password: String, against encoded: String, orPending pending: String?) async throws -> PasswordMatch {
        try await pool.run(refusable: true) {
            guard let stored = Argon2.Encoded(encoded),
                  let computed = try? Argon2.hash(
                      Array(password.utf8), salt: stored.salt, parameters: stored.parameters, version: stored.version,
                      length: stored.hash.count
                  )
            else { return .neither }
            let other = pending.flatMap(Argon2.Encoded.init).flatMap { other in
                other.salt == stored.salt && other.parameters == stored.parameters && other.version == stored.version
                    && other.hash.count == stored.hash.count ? other.hash : nil
            }
            let matchesStored = ConstantTime.equal(computed, stored.hash)
            let matchesPending = ConstantTime.equal(computed, other ?? stored.hash.map { ~$0 })
            return matchesStored ? .stored : (matchesPending ? .pending : .neither)
        }
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

/// Which hash a password matched (``PasswordHasher/verify(_:against:orPending:)``).
package enum PasswordMatch: Sendable, Equatable {
    case stored
    case pending
    case neither
}

/// argon2id could not hash (out of memory, or parameters out of range).
public struct Argon2Error: Error, CustomStringConvertible {
    public let code: Int32
    public var description: String { String(cString: argon2_error_message(code)) }
}
