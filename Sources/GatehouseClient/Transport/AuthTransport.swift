import Foundation
import LoginCore

/// How the SDK talks to an auth server: four calls, each throwing ``AuthError``.
///
/// ``RESTTransport`` speaks seed 000's REST contract; other backends (GraphQL, Supabase Auth)
/// are further conformances.
public protocol AuthTransport: Sendable {
    func signIn(email: String, password: String) async throws -> TokenResponse
    func refresh(_ refreshToken: String) async throws -> TokenResponse
    func signOut(accessToken: String, scope: SignOutScope) async throws
    /// The user an access token belongs to; `timeout` overrides the request timeout.
    func user(accessToken: String, timeout: TimeInterval?) async throws -> SignedInUser
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

    public init(accessToken: String, refreshToken: String, expiresIn: Int, user: SignedInUser) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.user = user
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case expiresIn = "expires_in"
        case user
    }
}
