import Foundation
import GatehouseModel
import LoginCore

/// A signed-in session: the token pair, when the access token expires, and who is signed in.
///
/// Its descriptions never show a token, so a session can be logged or printed safely.
public struct Session: Codable, Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    public var accessToken: String
    public var refreshToken: String
    /// When the access token expires, by the client's clock (issue time + `expires_in`).
    public var expiresAt: Date
    public var user: SignedInUser
    /// The factors a challenge may name while the session is at `aal1` and the account has a
    /// second factor (issue 37); empty otherwise. Kept with the session, so a relaunch knows.
    public var secondFactors: [FactorSummary]?

    public init(accessToken: String, refreshToken: String, expiresAt: Date, user: SignedInUser) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.user = user
    }

    /// A session from a token response received at `now`.
    init(_ response: TokenResponse, receivedAt now: Date) {
        self.init(
            accessToken: response.accessToken, refreshToken: response.refreshToken,
            expiresAt: now.addingTimeInterval(TimeInterval(response.expiresIn)), user: response.user
        )
        secondFactors = response.secondFactors.isEmpty ? nil : response.secondFactors
    }

    /// The session's assurance level: the access token's `aal` claim, read and not verified
    /// (the server's check is what counts; this tells the app whether to challenge).
    public var assuranceLevel: AssuranceLevel {
        let parts = accessToken.split(separator: ".")
        guard parts.count == 3, let payload = Data(base64URL: String(parts[1])),
              let claims = try? JSONDecoder().decode(AssuranceClaims.self, from: payload)
        else { return .aal1 }
        return claims.aal ?? .aal1
    }

    /// Whether a second factor must be answered before the account is fully signed in.
    public var needsSecondFactor: Bool { assuranceLevel == .aal1 && !(secondFactors ?? []).isEmpty }

    /// Whether the access token expires within `margin` seconds of `now`.
    public func expires(within margin: TimeInterval, of now: Date) -> Bool {
        expiresAt.timeIntervalSince(now) <= margin
    }

    public var description: String {
        "Session(user: \(user.email), expiresAt: \(expiresAt), accessToken: <redacted>, refreshToken: <redacted>)"
    }

    public var debugDescription: String { description }
}

/// Why a session ended.
public enum SignOutReason: String, Equatable, Sendable, Codable {
    /// The user signed out.
    case user
    /// The session reached its end, or its refresh token is no longer known.
    case expired
    /// The server ended it: logout elsewhere, a password change, or a reused refresh token.
    case revoked
    /// The account was locked.
    case locked
    /// The account was deleted by its owner (``AuthClient/deleteAccount(password:)``).
    case deleted
}

/// What happened to the session, as `AuthClient.sessionChanges` reports it.
public enum SessionChange: Equatable, Sendable {
    /// The session when the stream was opened.
    case initialSession(Session?)
    case signedIn(Session)
    case refreshed(Session)
    /// A restored session was confirmed by the server (after being offline, say).
    case validated(Session)
    case signedOut(SignOutReason)
}

/// The outcome of restoring a stored session at launch.
public enum RestoreResult: Equatable, Sendable {
    /// No session is stored.
    case signedOut
    /// The stored session is valid; the server confirmed it.
    case signedIn(Session)
    /// A session is stored but the server could not be asked in time: stay signed in, it will
    /// be validated on the next use.
    case offline(Session)
    /// The stored session ended; show LoginCore's `sessionExpired` message.
    case ended(SignOutReason)
    /// The secure store is locked (a keychain before first unlock): not the same as no session.
    case storeLocked
}
