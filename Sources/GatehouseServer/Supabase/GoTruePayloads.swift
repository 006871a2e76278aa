import Foundation
import GatehouseModel

/// A session as Supabase Auth returns it from `POST /token`.
struct GoTrueSession: Encodable {
    let accessToken: String
    let tokenType = "bearer"
    let expiresIn: Int
    /// The access token's expiry, in seconds since 1970.
    let expiresAt: Int
    let refreshToken: String
    let user: GoTrueUser

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token", tokenType = "token_type", expiresIn = "expires_in"
        case expiresAt = "expires_at", refreshToken = "refresh_token", user
    }

    init(_ grant: TokenGrant, record: UserRecord, now: Date) {
        accessToken = grant.accessToken
        expiresIn = grant.expiresIn
        expiresAt = Int(now.timeIntervalSince1970) + grant.expiresIn
        refreshToken = grant.refreshToken
        user = GoTrueUser(record)
    }
}

/// A user as Supabase Auth returns it: the first and last name live in `user_metadata`.
struct GoTrueUser: Encodable {
    struct AppMetadata: Encodable {
        let provider = "email"
        let providers = ["email"]
    }

    struct UserMetadata: Encodable {
        let firstName: String
        let lastName: String
        let fullName: String

        enum CodingKeys: String, CodingKey { case firstName = "first_name", lastName = "last_name", fullName = "full_name" }
    }

    let id: String
    let aud = "authenticated"
    let role = "authenticated"
    let email: String
    let phone = ""
    /// Accounts are created by an operator, so their email counts as confirmed when created.
    let emailConfirmedAt: String
    let confirmedAt: String
    let appMetadata = AppMetadata()
    let userMetadata: UserMetadata
    let identities: [String] = []
    let createdAt: String
    let updatedAt: String
    let isAnonymous = false

    enum CodingKeys: String, CodingKey {
        case id, aud, role, email, phone, identities
        case emailConfirmedAt = "email_confirmed_at", confirmedAt = "confirmed_at"
        case appMetadata = "app_metadata", userMetadata = "user_metadata"
        case createdAt = "created_at", updatedAt = "updated_at", isAnonymous = "is_anonymous"
    }

    init(_ record: UserRecord) {
        id = record.id
        email = record.email ?? ""
        let created = record.createdAt.formatted(.iso8601)
        emailConfirmedAt = created
        confirmedAt = created
        createdAt = created
        updatedAt = max(record.createdAt, record.passwordChangedAt).formatted(.iso8601)
        userMetadata = UserMetadata(
            firstName: record.personName.first, lastName: record.personName.last, fullName: record.name
        )
    }
}

/// The body of `POST /token?grant_type=password`; GoTrue's other keys are accepted and ignored.
struct GoTruePasswordGrant: Decodable {
    let email: String?
    let phone: String?
    let password: String?
}

/// The body of `POST /token?grant_type=refresh_token`.
struct GoTrueRefreshGrant: Decodable {
    let refreshToken: String

    enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
}

/// The body of `POST /otp`: a phone (sms) or, unsupported here, an email.
struct GoTrueOTPRequest: Decodable {
    let phone: String?
    let email: String?
    let createUser: Bool?
    let channel: String?

    enum CodingKeys: String, CodingKey {
        case phone, email, channel
        case createUser = "create_user"
    }
}

/// The body of `POST /verify` for a phone code.
struct GoTrueVerifyRequest: Decodable {
    let type: String
    let phone: String?
    let token: String?
}

/// The body of `POST /token?grant_type=id_token` (native Sign in with Google).
struct GoTrueIDTokenGrant: Decodable {
    let provider: String
    let idToken: String
    let nonce: String?

    enum CodingKeys: String, CodingKey {
        case provider, nonce
        case idToken = "id_token"
    }
}

/// The body of `POST /token?grant_type=pkce`: the code `/authorize` returned and the verifier.
struct GoTruePKCEGrant: Decodable {
    let authCode: String
    let codeVerifier: String

    enum CodingKeys: String, CodingKey {
        case authCode = "auth_code"
        case codeVerifier = "code_verifier"
    }
}
