import Foundation

/// What Sign in with Apple's sheet returns to the app.
public struct AppleIDCredential: Sendable, Equatable {
    /// The identity token (a JWT Apple signed) whose `nonce` is the SHA-256 of the raw nonce.
    public var identityToken: String
    /// The person's name: Apple gives it at the first authorisation only.
    public var name: String?

    public init(identityToken: String, name: String? = nil) {
        self.identityToken = identityToken
        self.name = name
    }
}

/// Presents Sign in with Apple and returns its credential.
///
/// ``AuthenticationServicesAppleIDProvider`` is the one for Apple platforms; tests use a double.
/// Dismissing the sheet throws ``AuthError/providerCancelled``.
public protocol AppleIDProvider: Sendable {
    /// Asks for `name` and `email` with the SHA-256 (hex) of `nonce` in the request.
    func credential(nonce: String) async throws -> AppleIDCredential
}

extension AuthClient {
    /// Signs in with Apple's sheet: a fresh nonce goes (hashed) into Apple's request and (raw)
    /// to the server, which checks that the token carries its hash. Every transport.
    @discardableResult
    public func signInWithApple(using provider: some AppleIDProvider) async throws -> GoogleSignIn {
        var generator = SystemRandomNumberGenerator()
        let nonce = Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let credential = try await provider.credential(nonce: nonce)
        return try await signInWithApple(identityToken: credential.identityToken, nonce: nonce, name: credential.name)
    }

    /// Signs in with an identity token the app got from Apple itself, the raw nonce whose
    /// SHA-256 its request carried, and the first authorisation's name.
    @discardableResult
    public func signInWithApple(identityToken: String, nonce: String?, name: String? = nil) async throws -> GoogleSignIn {
        let tokens = try await transport.token(.apple(identityToken: identityToken, nonce: nonce, name: name))
        return GoogleSignIn(session: try await manager.adopt(tokens), isNewUser: tokens.isNewUser)
    }
}
