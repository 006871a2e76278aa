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
    /// A mailed sign-in code and link (issue 39); its target is the address.
    public static let emailSignIn = Self(rawValue: "email_sign_in")
    /// A pending email change (issue 39): what changes once both addresses confirm; its id is
    /// the change's, its target `user:<id>`, so a new request replaces a pending one.
    public static let emailChange = Self(rawValue: "email_change")
    /// The link and code mailed to the new address of a pending change; its target is that address.
    public static let emailChangeNew = Self(rawValue: "email_change_new")
    /// The link and code mailed to the current address of a pending change; its target is that address.
    public static let emailChangeCurrent = Self(rawValue: "email_change_current")
    /// "This wasn't me" in the notice to the old address after a change: puts it back and
    /// starts a reset; its target is the old address.
    public static let emailChangeRevert = Self(rawValue: "email_change_revert")
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

    /// The proof's fields within their bounds; a 400 naming the field otherwise.
    func checkShape() throws {
        switch self {
        case .token(let token):
            guard !token.isEmpty, token.utf8.count <= 128 else { throw GatehouseError.invalidRequest("token must be 1 to 128 bytes") }
        case .code(let email, let code):
            guard !email.isEmpty, email.utf8.count <= PasswordVerifier.maximumIdentifierBytes else {
                throw GatehouseError.invalidRequest("email must be 1 to \(PasswordVerifier.maximumIdentifierBytes) bytes")
            }
            guard !code.isEmpty, code.utf8.count <= 16 else { throw GatehouseError.invalidRequest("code must be 1 to 16 bytes") }
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
    /// A sign-up's verification: the SHA-256 of the binding its browser or app was given; its
    /// link signs in only where that binding is presented. `nil`: signs in anywhere (a resend,
    /// an operator's link).
    package var binding: String?
    /// A sign-up by the address's owner of an account nobody ever proved the address of (a
    /// pre-hijack): the password hash and name that replace the account's when the mail is used.
    package var pendingPasswordHash: String?
    package var pendingName: String?
    /// A sign-in code for an address with no account, asked for with `create_user`: using it
    /// creates the account (with ``pendingName``). `userID` is empty then.
    package var createsAccount: Bool?
    /// An email change's confirmation: the pending change it confirms (``OneTimeSecretPurpose/emailChange``).
    package var changeID: String?

    package init(
        userID: String, email: String, binding: String? = nil, pendingPasswordHash: String? = nil, pendingName: String? = nil,
        createsAccount: Bool? = nil, changeID: String? = nil
    ) {
        self.changeID = changeID
        self.userID = userID
        self.email = email
        self.binding = binding
        self.pendingPasswordHash = pendingPasswordHash
        self.pendingName = pendingName
        self.createsAccount = createsAccount
    }

    /// Whether using the secret names an account, or makes one: a decoy's does neither.
    var isUsable: Bool { !userID.isEmpty || createsAccount == true }
}

extension OneTimeSecret {
    /// The account mail fields a mail secret carries; `nil` for another kind or unreadable data.
    var mailFields: MailSecretFields? { try? JSONDecoder().decode(MailSecretFields.self, from: data) }
}

/// What a sign-up answers: the address the mail went to, and the binding the client keeps to
/// present when it follows the link (a cookie on the web, `Gatehouse-Sign-Up` elsewhere).
package struct SignUpReceipt: Sendable {
    package let address: String
    package let binding: String
}
