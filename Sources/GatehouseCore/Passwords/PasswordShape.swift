/// The one shape check of a presented password, before anything is counted or hashed.
///
/// A presented password (to sign in, to prove the current one, or a new one that the
/// ``PasswordPolicy`` judges next) is refused when it is larger than ``maximumBytes``; where
/// one is required, an empty one is refused too. The policy's own rules come after this.
package enum PasswordShape {
    /// The most bytes a password may have; longer ones are refused before hashing.
    package static let maximumBytes = 1024

    /// Refuses `password` if it is over the size (or empty, when `required`), naming `field`.
    package static func check(_ password: String, field: String = "password", required: Bool = false) throws {
        if required, password.isEmpty { throw GatehouseError.invalidRequest("\(field) must not be empty") }
        guard password.utf8.count <= maximumBytes else {
            throw GatehouseError.invalidRequest("\(field) must be at most \(maximumBytes) bytes")
        }
    }
}
