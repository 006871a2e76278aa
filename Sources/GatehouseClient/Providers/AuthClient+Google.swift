import Foundation
import LoginCore

/// A finished sign-in with a provider (Google, Apple, GitHub, …): the stored session, and
/// whether the account is new.
public struct GoogleSignIn: Sendable, Equatable {
    public var session: Session
    /// The account was just created: show the profile step (seed 004's Profile Setup).
    public var isNewUser: Bool
}

extension AuthClient {
    /// Seed 002: signs in with an authorization code the app got from Google's sign-in sheet;
    /// the server exchanges it. REST and GraphQL.
    /// - Parameters:
    ///   - redirectURI: the redirect URI the app used to get the code.
    ///   - codeVerifier: the app's PKCE verifier, if it used one.
    @discardableResult
    public func signInWithGoogle(code: String, redirectURI: String? = nil, codeVerifier: String? = nil) async throws -> GoogleSignIn {
        try await google(.googleCode(code: code, redirectURI: redirectURI, codeVerifier: codeVerifier))
    }

    /// Signs in with an ID token from Google's SDK and the raw nonce the app sent with its
    /// request (the token carries the nonce's SHA-256). Every transport; Supabase's id_token grant.
    @discardableResult
    public func signInWithGoogle(idToken: String, nonce: String?) async throws -> GoogleSignIn {
        try await google(.googleIDToken(token: idToken, nonce: nonce))
    }

    /// Signs in with the one-time code a server-side Google flow returned to the app (a
    /// loopback redirect, like the CLI's), with the app's PKCE verifier.
    @discardableResult
    public func signInWithGoogle(flowCode: String, verifier: String) async throws -> GoogleSignIn {
        try await signInWithProvider(flowCode: flowCode, verifier: verifier)
    }

    /// Signs in with the one-time code any provider's server-side flow returned to the app
    /// (`/auth/<id>/start?redirect_to=…`, or Supabase's `/authorize?provider=…`): GitHub,
    /// Microsoft, Apple, an app's own OpenID issuer. REST and Supabase.
    @discardableResult
    public func signInWithProvider(flowCode: String, verifier: String) async throws -> GoogleSignIn {
        try await google(.flowCode(code: flowCode, verifier: verifier))
    }

    /// The provider button's outcome for a finished attempt, to feed to ``ProviderButton``.
    public static func providerOutcome(_ result: Result<GoogleSignIn, any Error>) -> ProviderOutcome {
        switch result {
        case .success(let signIn): .signedIn(isNewUser: signIn.isNewUser)
        case .failure(let error):
            switch failure(error) {
            case .providerCancelled: .cancelled
            case let failure: .failed(failure)
            }
        }
    }

    private func google(_ grant: AuthGrant) async throws -> GoogleSignIn {
        let tokens = try await transport.token(grant)
        return GoogleSignIn(session: try await manager.adopt(tokens), isNewUser: tokens.isNewUser)
    }
}
