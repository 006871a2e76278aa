import GatehouseCore

/// The body of `POST /api/auth/signup`.
package struct SignUpRequest: Decodable {
    package let email: String
    package let password: String
    package let name: String
}

/// A body that names only an address: `email/resend` and `password/forgot`.
package struct EmailRequest: Decodable {
    package let email: String
}

/// The body of `POST /api/auth/email/otp`: the address, whether an unknown one may get an
/// account (where the app allows sign-up), and that account's name.
package struct SignInCodeRequest: Decodable {
    package let email: String
    package let createUser: Bool?
    package let name: String?

    package enum CodingKeys: String, CodingKey {
        case email, name
        case createUser = "create_user"
    }
}

/// The body of `POST /api/auth/email/verify` and `password/reset`: a link's `token`, or the
/// `email` and the mailed `code`; with a `password` for a reset.
package struct MailProofRequest: Decodable {
    package let token: String?
    package let email: String?
    package let code: String?
    package let password: String?

    /// The proof, or a 400 naming what is missing.
    package func proof() throws -> MailProof {
        try MailProof(token: token, email: email, code: code)
    }
}

/// The body of `DELETE /api/me`: the password, for an account that has one.
package struct DeleteAccountRequest: Decodable {
    package let password: String?
}

/// The body of `POST /api/auth/password`.
package struct ChangePasswordRequest: Decodable {
    package let currentPassword: String
    package let password: String

    package enum CodingKeys: String, CodingKey {
        case currentPassword = "current_password"
        case password
    }
}

/// The answer to a request whose outcome is mailed: the same for every address.
package struct MailAccepted: Encodable {
    package let status = "accepted"
    /// The normalised address the mail would go to.
    package let email: String
}

/// The body of `POST /api/auth/email/change`: the new address, and the current password where
/// the session is not a sign-in of the last five minutes.
package struct EmailChangeRequest: Decodable {
    package let email: String
    package let password: String?
}
