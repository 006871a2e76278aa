import Crypto
import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseModel

/// A session as Supabase Auth returns it from `POST /token`.
package struct GoTrueSession: Encodable {
    package let accessToken: String
    package let tokenType = "bearer"
    package let expiresIn: Int
    /// The access token's expiry, in seconds since 1970.
    package let expiresAt: Int
    package let refreshToken: String
    package let user: GoTrueUser

    package enum CodingKeys: String, CodingKey {
        case accessToken = "access_token", tokenType = "token_type", expiresIn = "expires_in"
        case expiresAt = "expires_at", refreshToken = "refresh_token", user
    }

    package init(_ grant: TokenGrant, record: UserRecord, identities: [IdentityRecord], factors: [FactorRecord], now: Date) {
        accessToken = grant.accessToken
        expiresIn = grant.expiresIn
        expiresAt = Int(now.timeIntervalSince1970) + grant.expiresIn
        refreshToken = grant.refreshToken
        user = GoTrueUser(record, identities: identities, factors: factors)
    }
}

/// A user as Supabase Auth returns it: the first and last name live in `user_metadata`; the
/// ways in are `identities`, with the verification times GoTrue reports
/// (`email_confirmed_at`, `phone_confirmed_at`, `confirmed_at`, omitted when never verified).
package struct GoTrueUser: Encodable {
    package struct AppMetadata: Encodable {
        /// The way in the account began with (its oldest identity).
        package let provider: String
        package let providers: [String]
    }

    package struct UserMetadata: Encodable {
        package let firstName: String
        package let lastName: String
        package let fullName: String

        package enum CodingKeys: String, CodingKey { case firstName = "first_name", lastName = "last_name", fullName = "full_name" }
    }

    package let id: String
    package let aud = "authenticated"
    package let role = "authenticated"
    package let email: String
    /// GoTrue's spelling: E.164 without the `+`, or empty.
    package let phone: String
    package let emailConfirmedAt: String?
    package let phoneConfirmedAt: String?
    package let confirmedAt: String?
    package let appMetadata: AppMetadata
    package let userMetadata: UserMetadata
    package let identities: [GoTrueIdentity]
    package let createdAt: String
    package let updatedAt: String
    /// Until when the account is banned (locked); absent when it is not.
    package let bannedUntil: String?
    /// A guest account (issue 39): no way in yet.
    package let isAnonymous: Bool
    /// The account's second factors (issue 37); absent when it has none, as GoTrue omits them.
    package var factors: [GoTrueFactor]?
    /// The new address of a pending email change (issue 39); absent when none waits.
    package var newEmail: String?

    package enum CodingKeys: String, CodingKey {
        case id, aud, role, email, phone, identities, factors
        case newEmail = "new_email"
        case bannedUntil = "banned_until"
        case emailConfirmedAt = "email_confirmed_at", phoneConfirmedAt = "phone_confirmed_at", confirmedAt = "confirmed_at"
        case appMetadata = "app_metadata", userMetadata = "user_metadata"
        case createdAt = "created_at", updatedAt = "updated_at", isAnonymous = "is_anonymous"
    }

    package init(_ record: UserRecord, identities records: [IdentityRecord], factors: [FactorRecord] = []) {
        self.factors = factors.isEmpty ? nil : factors.map(GoTrueFactor.init)
        isAnonymous = records.isEmpty && record.isAnonymous
        id = record.id
        email = record.email ?? ""
        let emailIdentity = records.first { $0.provider == .email && $0.subject == record.email }
        let phoneIdentity = records.first { $0.provider == .phone }
        phone = phoneIdentity.map { String($0.subject.drop { $0 == "+" }) } ?? ""
        emailConfirmedAt = emailIdentity?.verifiedAt?.formatted(.iso8601)
        phoneConfirmedAt = phoneIdentity?.verifiedAt?.formatted(.iso8601)
        confirmedAt = [emailIdentity?.verifiedAt, phoneIdentity?.verifiedAt].compactMap { $0 }.min()?.formatted(.iso8601)
        var providers: [String] = []
        for identity in records where !providers.contains(identity.provider.rawValue) { providers.append(identity.provider.rawValue) }
        appMetadata = AppMetadata(provider: providers.first ?? (record.isAnonymous ? "anonymous" : "email"), providers: providers)
        identities = records.map { GoTrueIdentity($0, user: record) }
        createdAt = record.createdAt.formatted(.iso8601)
        updatedAt = max(record.createdAt, record.passwordChangedAt).formatted(.iso8601)
        // A lock without an end reads as the longest ban, so a client sees that it is banned.
        bannedUntil = record.lockedAt.map { (record.lockedUntil ?? $0.addingTimeInterval(BanDuration.longest)).formatted(.iso8601) }
        userMetadata = UserMetadata(
            firstName: record.personName.first, lastName: record.personName.last, fullName: record.name
        )
    }
}

/// One way into an account, as GoTrue lists it under a user's `identities`.
package struct GoTrueIdentity: Encodable {
    /// A stable id for this identity row: derived from the provider and subject.
    package let identityID: String
    /// The provider's id for the person (GoTrue uses the user's id for email identities).
    package let id: String
    package let userID: String
    package let identityData: [String: IdentityValue]
    package let provider: String
    package let email: String?
    package let createdAt: String
    package let updatedAt: String

    package enum IdentityValue: Encodable {
        case text(String), flag(Bool)

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .flag(let flag): try container.encode(flag)
            }
        }
    }

    package enum CodingKeys: String, CodingKey {
        case identityID = "identity_id", id, userID = "user_id", identityData = "identity_data", provider, email
        case createdAt = "created_at", updatedAt = "updated_at"
    }

    package init(_ identity: IdentityRecord, user: UserRecord) {
        let digest = SHA256.hash(data: Data("\(identity.provider.rawValue):\(identity.subject)".utf8))
        identityID = UUID(uuid: digest.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }).uuidString.lowercased()
        id = identity.provider == .email ? user.id : identity.subject
        userID = user.id
        provider = identity.provider.rawValue
        let verified = identity.verifiedAt != nil
        var data: [String: IdentityValue] = ["sub": .text(id)]
        switch identity.provider {
        case .phone:
            data["phone"] = .text(String(identity.subject.drop { $0 == "+" }))
            data["phone_verified"] = .flag(verified)
            email = nil
        default:
            let address = identity.provider == .email ? identity.subject : (user.email ?? "")
            data["email"] = .text(address)
            data["email_verified"] = .flag(verified)
            email = address.isEmpty ? nil : address
        }
        identityData = data
        createdAt = identity.createdAt.formatted(.iso8601)
        updatedAt = (identity.verifiedAt ?? identity.createdAt).formatted(.iso8601)
    }
}

/// The body of `POST /token?grant_type=password`; GoTrue's other keys are accepted and ignored.
package struct GoTruePasswordGrant: Decodable {
    package let email: String?
    package let phone: String?
    package let password: String?
}

/// The body of `POST /token?grant_type=refresh_token`.
package struct GoTrueRefreshGrant: Decodable {
    package let refreshToken: String

    package enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
}

/// The body of `POST /otp`: a phone (sms) or, unsupported here, an email.
package struct GoTrueOTPRequest: Decodable {
    package let phone: String?
    package let email: String?
    package let createUser: Bool?
    package let channel: String?
    /// A new account's metadata: its `full_name` or `name`.
    package let data: GoTrueSignUpRequest.Metadata?

    package enum CodingKeys: String, CodingKey {
        case phone, email, channel, data
        case createUser = "create_user"
    }
}

/// The body of `POST /magiclink`: the address (and a new account's metadata).
package struct GoTrueMagicLinkRequest: Decodable {
    package let email: String
    package let data: GoTrueSignUpRequest.Metadata?
}

/// The body of `POST /verify` for a phone code.
package struct GoTrueVerifyRequest: Decodable {
    package let type: String
    package let phone: String?
    package let email: String?
    package let token: String?
    package let tokenHash: String?
    package let redirectTo: String?

    package enum CodingKeys: String, CodingKey {
        case type, phone, email, token
        case tokenHash = "token_hash", redirectTo = "redirect_to"
    }

    /// A mail's proof: `token_hash` (the link's secret), or `email` and the 6-digit `token`.
    package func mailProof() throws -> MailProof {
        switch (tokenHash, email, token) {
        case (let hash?, nil, nil): return .token(hash)
        case (nil, let email?, let code?): return .code(email: email, code: code)
        default: throw GoTrueError.validationFailed("Verify requires either a token_hash, or an email and a token")
        }
    }
}

/// The body of `POST /signup`: an address, a password and optional metadata with the name.
package struct GoTrueSignUpRequest: Decodable {
    package struct Metadata: Decodable {
        package let fullName: String?
        package let name: String?

        package enum CodingKeys: String, CodingKey {
            case fullName = "full_name", name
        }
    }

    package let email: String?
    package let phone: String?
    package let password: String?
    package let data: Metadata?
}

/// The body of `POST /resend`: `type` `signup` (or `email_change`, not offered) and the address.
package struct GoTrueResendRequest: Decodable {
    package let type: String
    package let email: String?
    package let phone: String?
}

/// The body of `POST /recover`.
package struct GoTrueRecoverRequest: Decodable {
    package let email: String
}

/// The body of `PUT /user`: only a new password is taken.
package struct GoTrueUpdateUserRequest: Decodable {
    package let password: String?
    package let email: String?
    package let phone: String?
    package let data: [String: String]?
    /// The code `GET /reauthenticate` mailed.
    package let nonce: String?
    package let currentPassword: String?

    package enum CodingKeys: String, CodingKey {
        case password, email, phone, data, nonce
        case currentPassword = "current_password"
    }
}

/// The body of `POST /token?grant_type=id_token` (native Sign in with Google).
package struct GoTrueIDTokenGrant: Decodable {
    package let provider: String
    package let idToken: String
    package let nonce: String?

    package enum CodingKeys: String, CodingKey {
        case provider, nonce
        case idToken = "id_token"
    }
}

/// The body of `POST /token?grant_type=pkce`: the code `/authorize` returned and the verifier.
package struct GoTruePKCEGrant: Decodable {
    package let authCode: String
    package let codeVerifier: String

    package enum CodingKeys: String, CodingKey {
        case authCode = "auth_code"
        case codeVerifier = "code_verifier"
    }
}
