import Foundation
import GatehouseModel
import LoginCore

/// How the SDK talks to an auth server: three calls, each throwing ``AuthError``.
///
/// ``RESTTransport`` speaks seed 000's REST contract; other backends (GraphQL, Supabase Auth)
/// are further conformances. Every way to get tokens is an ``AuthGrant`` through
/// ``token(_:)``, so a new sign-in method adds a grant case, not a protocol method.
public protocol AuthTransport: Sendable {
    /// Exchanges a grant for a token response.
    func token(_ grant: AuthGrant) async throws -> TokenResponse
    func signOut(accessToken: String, scope: SignOutScope) async throws
    /// The user an access token belongs to; `timeout` overrides the request timeout.
    func user(accessToken: String, timeout: TimeInterval?) async throws -> SignedInUser
}

/// What a client presents to get tokens.
public enum AuthGrant: Sendable, Equatable, CustomStringConvertible {
    /// An identifier (an email) and a password.
    case password(identifier: String, password: String)
    /// A refresh token, exchanged for a new pair.
    case refreshToken(String)
    /// A one-time code sent by SMS (seed 004): the code's verification id, the phone it went to
    /// (E.164; Supabase verifies by phone) and the code.
    case phoneCode(verificationID: String, phone: String, code: String)
    /// Sign in with Google (seed 002): an authorization code the app got from Google, with the
    /// redirect URI and PKCE verifier it used; the server exchanges it (REST and GraphQL).
    case googleCode(code: String, redirectURI: String?, codeVerifier: String?)
    /// Sign in with Google: an ID token from Google's SDK and the raw nonce the app sent (the
    /// token carries its SHA-256, GoTrue's rule). Every transport.
    case googleIDToken(token: String, nonce: String?)
    /// Sign in with Apple: the identity token from Apple's sheet, the raw nonce whose SHA-256
    /// the request carried, and the name Apple gives at the first authorisation only. Every transport.
    case apple(identityToken: String, nonce: String?, name: String?)
    /// The one-time code a server-side Google flow returned to the app, with the app's PKCE
    /// verifier (the CLI's loopback sign-in; Supabase's `grant_type=pkce`).
    case flowCode(code: String, verifier: String)
    /// A verification mail's link token or code: verifies the address and signs in.
    case emailLink(EmailProof)
    /// A sign-in mail's code or link token (issue 39): signs in, and proves the address.
    case emailCode(EmailProof)
    /// A new guest account (issue 39): kept later by adding a way in.
    case anonymous
    /// A reset mail's link token or code with the new password: sets it and signs in.
    case passwordReset(EmailProof, newPassword: String)
    /// A passkey's assertion (issue 23), answering a challenge from ``PasskeyTransport/passkeyAuthenticationOptions()``.
    case passkey(PasskeyAssertionJSON)

    /// The grant's kind; never shows a secret.
    public var description: String {
        switch self {
        case .password(let identifier, _): "AuthGrant.password(identifier: \(identifier), <redacted>)"
        case .refreshToken: "AuthGrant.refreshToken(<redacted>)"
        case .phoneCode: "AuthGrant.phoneCode(<redacted>)"
        case .googleCode: "AuthGrant.googleCode(<redacted>)"
        case .googleIDToken: "AuthGrant.googleIDToken(<redacted>)"
        case .apple: "AuthGrant.apple(<redacted>)"
        case .flowCode: "AuthGrant.flowCode(<redacted>)"
        case .emailLink: "AuthGrant.emailLink(<redacted>)"
        case .emailCode: "AuthGrant.emailCode(<redacted>)"
        case .anonymous: "AuthGrant.anonymous"
        case .passwordReset: "AuthGrant.passwordReset(<redacted>)"
        case .passkey: "AuthGrant.passkey(<redacted>)"
        }
    }

    /// The error of a transport that cannot carry this grant.
    func unsupported(by backend: String) -> AuthError {
        AuthError.server(status: 0, code: "unsupported", message: "\(backend) cannot carry \(description)")
    }
}

/// A transport that can send one-time codes by SMS (seed 004); REST, GraphQL and Supabase do.
public protocol PhoneCodeTransport: AuthTransport {
    /// Sends a sign-in code to `phone` (E.164, or national with `country`).
    func sendPhoneCode(phone: String, country: String?) async throws -> PhoneCodeSent
    /// Sends a new code for an earlier one; the old code stops working.
    func resendPhoneCode(verificationID: String, phone: String) async throws -> PhoneCodeSent
}

/// What a person presents from an account mail: the link's token, or the address and the code.
public enum EmailProof: Sendable, Equatable {
    case token(String)
    case code(email: String, code: String)

    /// Whether it is a link's token rather than a typed code.
    var isToken: Bool {
        if case .token = self { return true }
        return false
    }

    /// The proof's JSON fields (`token`, or `email` and `code`).
    var fields: [String: String] {
        switch self {
        case .token(let token): ["token": token]
        case .code(let email, let code): ["email": email, "code": code]
        }
    }
}

/// A transport that can create accounts and mail their verification and reset links (issue 22).
public protocol AccountTransport: AuthTransport {
    /// Creates an account and mails its verification; returns the normalised address. The answer
    /// is the same whether or not the address already had an account.
    func signUp(email: String, password: String, name: String) async throws -> String
    /// Mails a new verification link if the account needs one.
    func resendVerification(email: String) async throws
    /// Mails a reset link and code if the address has an account.
    func requestPasswordReset(email: String) async throws
    /// Mails a sign-in code and link (issue 39); with `createUser`, to an address with no
    /// account too, whose code then creates it. The same answer for every address.
    func sendEmailCode(email: String, createUser: Bool) async throws
}

/// A transport that can delete the signed-in account (issue 39); REST and GraphQL can.
/// Supabase Auth has no self-delete route (its admin API deletes).
public protocol AccountDeletionTransport: AuthTransport {
    /// Deletes the account, proved by its password or (without one) a sign-in of the last five
    /// minutes; returns when it goes, where the server keeps it for a grace period.
    func deleteAccount(accessToken: String, password: String?) async throws -> Date?
}

/// Which sessions a sign-out ends.
public enum SignOutScope: String, Sendable, CaseIterable {
    /// This device only (seed 001 US3.4).
    case local
    /// Every device.
    case global
    /// Every device but this one.
    case others
}

/// A token response (seed 000 C2).
public struct TokenResponse: Decodable, Equatable, Sendable {
    public var accessToken: String
    public var refreshToken: String
    public var expiresIn: Int
    public var user: SignedInUser
    /// The sign-in created the account (a first Google sign-in): show the profile step.
    public var isNewUser: Bool
    /// At `aal1` for an account with a second factor: the factors a challenge may name.
    public var secondFactors: [FactorSummary] = []
    /// A first factor's recovery codes, shown once.
    public var recoveryCodes: [String]?

    public init(accessToken: String, refreshToken: String, expiresIn: Int, user: SignedInUser, isNewUser: Bool = false) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.user = user
        self.isNewUser = isNewUser
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case expiresIn = "expires_in"
        case user, mfa
        case recoveryCodes = "recovery_codes"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            accessToken: try container.decode(String.self, forKey: .accessToken),
            refreshToken: try container.decode(String.self, forKey: .refreshToken),
            expiresIn: try container.decode(Int.self, forKey: .expiresIn), user: try container.decode(SignedInUser.self, forKey: .user)
        )
        secondFactors = (try? container.decodeIfPresent(SecondFactorHint.self, forKey: .mfa))?.factors ?? []
        recoveryCodes = try? container.decodeIfPresent([String].self, forKey: .recoveryCodes)
    }
}
