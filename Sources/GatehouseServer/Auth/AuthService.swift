import Foundation
import Logging

/// Sign-in, refresh and sign-out, independent of HTTP.
///
/// Unknown emails are verified against a dummy hash so that a wrong email and a wrong password
/// take the same time and get the same answer. Nothing here logs a password or a token.
public struct AuthService: Sendable {
    let users: any UserRepository
    let sessions: any SessionRepository
    let hasher: PasswordHasher
    let tokens: TokenIssuer
    let configuration: GatehouseConfiguration
    let dummyHash: String
    let logger: Logger

    /// Passwords longer than this many bytes are refused before hashing.
    static let maximumPasswordBytes = 1024

    init(
        users: any UserRepository, sessions: any SessionRepository, hasher: PasswordHasher,
        tokens: TokenIssuer, configuration: GatehouseConfiguration, logger: Logger
    ) async throws {
        self.users = users
        self.sessions = sessions
        self.hasher = hasher
        self.tokens = tokens
        self.configuration = configuration
        self.logger = logger
        dummyHash = try await hasher.hash(RefreshToken.generate())
    }

    var now: Date { configuration.clock() }

    /// Checks an email and password and opens a session (seed 000 C2).
    func login(email: String, password: String) async throws -> TokenGrant {
        let email = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !email.isEmpty else { throw APIError.invalidRequest("email must not be empty") }
        guard !password.isEmpty else { throw APIError.invalidRequest("password must not be empty") }
        guard password.utf8.count <= Self.maximumPasswordBytes else {
            throw APIError.invalidRequest("password must be at most \(Self.maximumPasswordBytes) bytes")
        }
        let user = try await users.user(email: email)
        let matches = try await hasher.verify(password, against: user?.passwordHash ?? dummyHash)
        guard let user, matches else {
            logger.info("Login refused", metadata: ["reason": "invalid_credentials"])
            throw APIError.invalidCredentials
        }
        guard user.lockedAt == nil else {
            logger.info("Login refused", metadata: ["reason": "account_locked", "user.id": "\(user.id)"])
            throw APIError.accountLocked
        }
        let start = now
        let session = SessionRecord(
            id: UUID().uuidString.lowercased(), userID: user.id, createdAt: start,
            expiresAt: start.addingTimeInterval(TimeInterval(configuration.refreshTokenLifetime))
        )
        try await sessions.createSession(session)
        let refresh = RefreshToken.generate()
        try await sessions.insertRefreshToken(
            RefreshTokenRecord(tokenHash: RefreshToken.hash(refresh), sessionID: session.id, createdAt: start)
        )
        logger.info("Login succeeded", metadata: ["user.id": "\(user.id)", "session.id": "\(session.id)"])
        return try await grant(user: user, session: session, refreshToken: refresh)
    }

    func grant(user: UserRecord, session: SessionRecord, refreshToken: String) async throws -> TokenGrant {
        let access = try await tokens.issue(userID: user.id, sessionID: session.id, now: now)
        return TokenGrant(
            accessToken: access, refreshToken: refreshToken, expiresIn: tokens.lifetime, user: user.profile, account: user
        )
    }
}
