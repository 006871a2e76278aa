import Foundation

extension OneTimeSecretPurpose {
    /// A mailed link and code that verify an account's email; its target is the address.
    public static let emailVerification = Self(rawValue: "email_verify")
    /// A mailed link and code that reset a password; its target is the address.
    public static let passwordReset = Self(rawValue: "password_reset")
    /// A code mailed to a signed-in person to confirm a password change (GoTrue's `nonce`).
    public static let reauthentication = Self(rawValue: "reauthentication")
    /// A recovery link's session, which may set the password once without another proof; its
    /// id and target are the session's id.
    public static let recoverySession = Self(rawValue: "recovery_session")
}

/// What a person presents from an account mail: the link's token, or the address and the code.
public enum MailProof: Sendable, Equatable {
    case token(String)
    case code(email: String, code: String)

    /// The proof a request's fields give: `token` alone, or `email` and `code`; a 400 otherwise.
    package init(token: String?, email: String?, code: String?) throws {
        switch (token, email, code) {
        case (let token?, nil, nil): self = .token(token)
        case (nil, let email?, let code?): self = .code(email: email, code: code)
        default: throw GatehouseError.invalidRequest("send either token, or email and code")
        }
    }
}

/// A mail secret as issued: the token for the link and the code to type. Never stored: the
/// store keeps the token's hash and the code's MAC.
package struct IssuedMailSecret: Sendable {
    package let token: String
    package let code: String
}

/// The account a redeemed mail secret was issued for.
package struct MailSecretFields: Codable, Sendable, Equatable {
    package var userID: String
    package var email: String
}
