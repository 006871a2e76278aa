import Crypto
import Foundation
import Logging

/// Sign-in, refresh and sign-out, independent of HTTP.
///
/// Every way in is a ``Grant`` through ``signIn(_:from:)``: limits first, then the grant's
/// verifier, then one place that opens the session. Unknown identifiers are verified against
/// a dummy hash and counted like real ones, so they get the same answer in the same time and
/// the same throttling. Nothing here logs a password or a token.
public struct AuthService: Sendable {
    package let users: any UserRepository
    package let sessions: any SessionRepository
    package let hasher: PasswordHasher
    package let tokens: TokenIssuer
    package let limiter: AttemptLimiter
    /// Phone codes, when the app offers phone sign-in.
    package let phone: PhoneCodeIssuer?
    package let flows: any OIDCFlowRepository
    /// Google (or the configured OpenID provider), when one is configured.
    package let google: ProviderSignIn?
    package let settings: AuthSettings
    /// Account mail (verification, reset), when the app sends any.
    package let mail: AccountMailer?
    /// Passkeys: the relying party and where credentials and challenges are kept.
    package let passkeys: PasskeyStore?
    /// The rules every new password meets.
    package let passwords: PasswordPolicy
    /// Where security events go (the audit log); `nil` reports nothing.
    package let events: (any EventSink)?
    package let dummyHash: String
    package let logger: Logger

    /// Identifiers longer than this many bytes are refused before any lookup.
    package static let maximumIdentifierBytes = 320

    /// A pipeline over one repository, with the optional features the composition root built.
    /// - Parameters:
    ///   - keys: the keyed references limits count by (see ``AccountKeys/open(_:)``).
    ///   - phone: phone codes; `nil` when the app does not offer phone sign-in.
    ///   - google: the external provider; `nil` when none is configured.
    ///   - mail: account mail; `nil` when the app sends none.
    ///   - breached: the breached-password range API, if one is configured.
    package init(
        repository: some UserRepository & SessionRepository & ThrottleRepository & OIDCFlowRepository,
        hasher: PasswordHasher, tokens: TokenIssuer, keys: AccountKeys, settings: AuthSettings, phone: PhoneCodeIssuer? = nil,
        google: ProviderSignIn? = nil, mail: AccountMailer? = nil, breached: (any BreachedPasswords)? = nil,
        passkeys: PasskeyStore? = nil, events: (any EventSink)? = nil, logger: Logger
    ) async throws {
        self.events = events
        self.passkeys = passkeys
        self.mail = mail
        passwords = PasswordPolicy(
            minimumLength: settings.accounts.passwordMinimumLength, breached: breached, messages: settings.login.messages
        )
        users = repository
        sessions = repository
        flows = repository
        self.hasher = hasher
        self.tokens = tokens
        self.settings = settings
        self.phone = phone
        self.google = google
        self.logger = logger
        var limiter = AttemptLimiter(throttles: repository, policy: settings.abuse, keys: keys, logger: logger)
        limiter.events = events
        self.limiter = limiter
        dummyHash = try await hasher.hash(RefreshToken.generate())
    }

    package var now: Date { settings.clock() }

    /// Signs in with any grant and opens an API session (access and refresh token).
    /// - Parameters:
    ///   - grant: what the client presents.
    ///   - client: who presents it; its address and device token count against the limits.
    /// - Returns: the tokens, the user, and a device token for the client to keep.
    package func signIn(_ grant: Grant, from client: ClientInfo) async throws -> SignIn {
        let admitted = try await admit(grant, from: client)
        let user = admitted.user
        let refresh = RefreshToken.generate()
        let session = try await openSession(
            for: user, method: grant.method, client: client, lifetime: settings.refreshTokenLifetime
        ) { session in
            .refreshToken(RefreshTokenRecord(tokenHash: RefreshToken.hash(refresh), sessionID: session.id, createdAt: session.createdAt))
        }
        return SignIn(
            grant: try await self.grant(user: user, session: session, refreshToken: refresh), deviceToken: admitted.deviceToken,
            isNewUser: admitted.isNewUser
        )
    }

    /// The pipeline every sign-in shares: shape checks, limits, the grant's verifier, the lock.
    /// - Returns: the account, whether it was just created, the flow that proved it (if any),
    ///   and the device token the client should keep.
    package func admit(_ grant: Grant, from client: ClientInfo) async throws -> Admission {
        do {
            let admission = try await admitting(grant, from: client)
            AuthMetrics.signIn(method: grant.method, outcome: .success)
            return admission
        } catch {
            AuthMetrics.signIn(method: grant.method, outcome: AuthMetrics.outcome(of: error))
            throw error
        }
    }

    private func admitting(_ grant: Grant, from client: ClientInfo) async throws -> Admission {
        try check(grant)
        let attempt = try await limiter.admit(grant.identifier, from: client, now: now)
        let outcome: Verified?
        do {
            outcome = try await verify(grant)
        } catch GatehouseError.passkeyRejected(let failure) {
            // A refused passkey counts like a wrong password; the check it failed is logged, never sent.
            try await limiter.recordFailure(attempt, now: now)
            logger.notice("Sign-in refused", metadata: [
                "reason": "passkey_rejected", "check": "\(failure)", "client.address": "\(client.address)",
            ])
            report(.signInRefused(account: attempt.account, method: grant.method, reason: .invalidCredentials), client: client)
            throw GatehouseError.passkeyRejected(failure)
        }
        guard let verified = outcome else {
            try await limiter.recordFailure(attempt, now: now)
            logger.notice("Sign-in refused", metadata: [
                "reason": "invalid_credentials", "method": "\(grant.method.rawValue)", "account.ref": "\(attempt.account)",
                "client.address": "\(client.address)",
            ])
            report(.signInRefused(account: attempt.account, method: grant.method, reason: .invalidCredentials), client: client)
            throw GatehouseError.invalidCredentials
        }
        let user = verified.user
        guard !user.isLocked(at: now) else {
            logger.notice("Sign-in refused", metadata: [
                "reason": "account_locked", "user.id": "\(user.id)", "client.address": "\(client.address)",
            ])
            report(.signInRefused(account: attempt.account, method: grant.method, reason: .accountLocked, userID: user.id), client: client)
            throw GatehouseError.accountLocked
        }
        if case .password = grant, settings.accounts.requireVerifiedEmail, try await !emailVerified(user) {
            logger.notice("Sign-in refused", metadata: [
                "reason": "email_not_verified", "user.id": "\(user.id)", "client.address": "\(client.address)",
            ])
            report(.signInRefused(account: attempt.account, method: grant.method, reason: .emailNotVerified, userID: user.id), client: client)
            throw GatehouseError.emailNotVerified
        }
        return Admission(
            user: user, deviceToken: try await limiter.recordSuccess(attempt, now: now), isNewUser: verified.isNewUser,
            flow: verified.flow
        )
    }

    /// Refuses malformed grants before anything is counted or hashed.
    private func check(_ grant: Grant) throws {
        switch grant {
        case .password(_, let password):
            // The app's `signIn.methods` gate the password on every surface, before anything is counted.
            guard settings.signInMethods.offers(.email) else { throw GatehouseError.methodNotOffered(.email) }
            let identifier = grant.identifier
            guard !identifier.isEmpty else { throw GatehouseError.invalidRequest("email must not be empty") }
            guard identifier.utf8.count <= Self.maximumIdentifierBytes else {
                throw GatehouseError.invalidRequest("email must be at most \(Self.maximumIdentifierBytes) bytes")
            }
            try PasswordShape.check(password, required: true)
        case .phoneCode(let verificationID, let code):
            try requirePhoneSignIn()
            guard !verificationID.isEmpty, verificationID.utf8.count <= 64 else {
                throw GatehouseError.invalidRequest("verification_id must be 1 to 64 bytes")
            }
            guard !code.isEmpty, code.utf8.count <= 16 else { throw GatehouseError.invalidRequest("code must be 1 to 16 bytes") }
        case .google(let proof):
            try requireGoogle().checkShape(proof)
        case .flowCode(let code, let verifier):
            guard !code.isEmpty, code.utf8.count <= 128 else { throw GatehouseError.invalidRequest("auth_code must be 1 to 128 bytes") }
            guard (43...128).contains(verifier.utf8.count) else {
                throw GatehouseError.invalidRequest("code_verifier must be 43 to 128 characters")
            }
        case .emailLink(let proof):
            try checkMailGrant(proof)
        case .passwordReset(let proof, let password):
            guard settings.accounts.passwordReset else { throw GatehouseError.featureNotOffered(.passwordReset) }
            try checkMailGrant(proof)
            if let password { try PasswordShape.check(password) }
        case .passkey:
            _ = try requirePasskeys()
        }
    }

    /// The grant's verifier: the account it proves, or `nil` (a code's own refusals are thrown).
    private func verify(_ grant: Grant) async throws -> Verified? {
        switch grant {
        case .password(_, let password):
            let found = try await users.userAndPasswordHash(provider: .email, subject: grant.identifier)
            let hash = found?.1
            let matches = try await hasher.verify(password, against: hash ?? dummyHash)
            return matches && hash != nil ? found.map { Verified(user: $0.0) } : nil
        case .phoneCode(let verificationID, let code):
            return Verified(user: try await verifyPhoneCode(verificationID, code: code))
        case .google(let proof):
            return try await verifyGoogle(proof)
        case .flowCode(let code, let verifier):
            return try await verifyFlowCode(code, verifier: verifier)
        case .emailLink(let proof):
            return try await verifyEmailLink(proof)
        case .passwordReset(let proof, let password):
            return try await verifyPasswordReset(proof, newPassword: password)
        case .passkey(let assertion):
            return try await verifyPasskey(assertion)
        }
    }

    /// Opens a session with its first credential, in one transaction: the one place sessions begin.
    /// - Parameters:
    ///   - lifetime: seconds until the session ends, however it is used.
    ///   - credential: the refresh token or web session id that will hold the session.
    package func openSession(
        for user: UserRecord, method: SignInMethodName, client: ClientInfo, lifetime: Int,
        credential: (SessionRecord) -> SessionCredential
    ) async throws -> SessionRecord {
        let start = now
        let session = SessionRecord(
            id: UUID().uuidString.lowercased(), userID: user.id, createdAt: start,
            expiresAt: start.addingTimeInterval(TimeInterval(lifetime)),
            deviceLabel: DeviceLabel.make(userAgent: client.userAgent), address: client.address, lastSeenAt: start
        )
        let made = credential(session)
        try await sessions.createSession(session, credential: made)
        let kind = if case .webSession = made { "web" } else { "api" }
        logger.info("Sign-in succeeded", metadata: [
            "user.id": "\(user.id)", "session.id": "\(session.id)", "session.kind": "\(kind)", "method": "\(method.rawValue)",
            "client.address": "\(client.address)",
        ])
        // The session's own label: the user agent is read once per sign-in.
        report(.signInSucceeded(userID: user.id, sessionID: session.id, method: method), address: client.address, device: session.deviceLabel)
        return session
    }

    package func grant(user: UserRecord, session: SessionRecord, refreshToken: String) async throws -> TokenGrant {
        let access = try await tokens.issue(userID: user.id, sessionID: session.id, now: now)
        return TokenGrant(
            accessToken: access, refreshToken: refreshToken, expiresIn: tokens.lifetime, user: user.profile, account: user
        )
    }
}

/// A successful sign-in: the token grant and a device token the client should present next time.
package struct SignIn: Sendable {
    package let grant: TokenGrant
    package let deviceToken: String
    /// Whether the grant created the account (a first Google sign-in): the app shows its profile step.
    package var isNewUser = false
}

/// What a grant's verifier proved: the account, whether it was just created, and the provider
/// flow it came through.
package struct Verified: Sendable {
    package var user: UserRecord
    package var isNewUser = false
    package var flow: OIDCFlowRecord?
}

/// A grant that passed every limit and its verifier.
package struct Admission: Sendable {
    package let user: UserRecord
    package let deviceToken: String
    package let isNewUser: Bool
    package let flow: OIDCFlowRecord?
}
