import GatehouseModel

/// The result of a successful sign-in: who signed in and the tokens to store.
public struct LoginSuccess: Equatable, Sendable {
    public var user: SignedInUser
    public var tokens: SessionTokens

    public init(user: SignedInUser, tokens: SessionTokens) {
        self.user = user
        self.tokens = tokens
    }
}

/// An access and refresh token pair; its descriptions never show the tokens.
public struct SessionTokens: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    public var accessToken: String
    public var refreshToken: String
    /// Seconds until the access token expires, as the server said.
    public var expiresIn: Int

    public init(accessToken: String, refreshToken: String, expiresIn: Int) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
    }

    public var description: String { "SessionTokens(accessToken: <redacted>, refreshToken: <redacted>, expiresIn: \(expiresIn))" }
    public var debugDescription: String { description }
}

/// The credentials an authenticate effect carries; its descriptions never show the password.
public struct Credentials: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The normalised email: trimmed and lower-cased.
    public var email: String
    public var password: String

    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }

    public var description: String { "Credentials(email: \(email), password: <redacted>)" }
    public var debugDescription: String { description }
}
