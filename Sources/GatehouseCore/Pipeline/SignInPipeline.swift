import Foundation
import Logging

/// Sign-in, sessions, refresh and sign-out, independent of HTTP: the one way into an account.
///
/// Every way in is a ``Grant`` through ``signIn(_:from:)``: its verifier's shape check, then the
/// limits, then the verifier a feature service registered, then the lock, and one place that
/// opens the session. Unknown identifiers are verified against a dummy hash and counted like
/// real ones, so they get the same answer in the same time and the same throttling. The
/// pipeline keeps its repositories to itself; nothing here logs a password or a token.
///
/// A sign-in is a run of about a dozen statements, so each way in (``signIn(_:from:)``,
/// ``admit(_:from:)``, the web's and the step-ups) runs where they cost least
/// (``StorageAffinity``): on SQLite's connection thread, a passkey sign-in's server time went
/// from 2.2–2.8 ms to 1.4–2.0 ms (issue 41). A password sign-in runs on a hashing thread
/// instead, from its limits to its token, its hash in place, and on an SQLite file its
/// statements on that thread's own connection (``ServiceContext/nearStorage(hashing:_:)``).
public final class SignInPipeline: Sendable {
    let context: ServiceContext
    package let tokens: TokenIssuer
    /// The verifier of each kind of grant the app offers.
    private let verifiers: [GrantKind: any GrantVerifier]

    /// The pipeline over the shared parts, with the verifiers of the services the app enables
    /// (the password's own is always there; the app's `signIn.methods` gate it).
    package init(context: ServiceContext, tokens: TokenIssuer, verifiers: [any GrantVerifier], pending: (any PendingPasswords)? = nil) {
        self.context = context
        self.tokens = tokens
        var table: [GrantKind: any GrantVerifier] = [:]
        for verifier in [PasswordVerifier(context: context, pending: pending)] + verifiers {
            for kind in verifier.kinds { table[kind] = verifier }
        }
        self.verifiers = table
    }

    package var now: Date { context.now }
    /// What the app offers and how long things live.
    package var settings: AuthSettings { context.settings }
    /// The hashing threads a password sign-in runs on from start to finish (an SQLite file), for
    /// the HTTP server to answer it from there too; `nil` where it does not run there.
    package var passwordSignInThreads: HashingPool? { context.hashingThreads }

    /// Signs in with any grant and opens an API session (access and refresh token).
    /// - Parameters:
    ///   - grant: what the client presents.
    ///   - client: who presents it; its address and device token count against the limits.
    /// - Returns: the tokens, the user, and a device token for the client to keep.
    package func signIn(_ grant: Grant, from client: ClientInfo) async throws -> SignIn {
        guard !grant.kind.isStepUpOnly else { throw GatehouseError.unauthenticated }
        return try await context.nearStorage(hashing: grant.kind.hashesAPassword) {
            let admitted = try await admission(grant, from: client)
            let method = admitted.method ?? grant.method
            return try await openAPISession(for: admitted, assurance: .signedIn(with: method, at: now), method: method, client: client)
        }
    }

    /// Opens an API session for an admitted grant: its first refresh token, and the access
    /// token with the session's assurance (and, at `aal1` for an account with a second factor,
    /// the hint that a challenge comes next).
    func openAPISession(for admitted: Admission, assurance: SessionAssurance, method: SignInMethodName, client: ClientInfo) async throws -> SignIn {
        let refresh = RefreshToken.generate()
        let session = try await openSession(
            for: admitted.user, method: method, client: client, lifetime: settings.refreshTokenLifetime, assurance: assurance,
            writes: admitted.writes, reports: admitted.reports
        ) { session in
            .refreshToken(RefreshTokenRecord(tokenHash: RefreshToken.hash(refresh), sessionID: session.id, createdAt: session.createdAt))
        }
        var grant = try await self.grant(user: admitted.user, session: session, refreshToken: refresh)
        grant.mfa = try await secondFactorHint(for: admitted.user, session: session, known: admitted.hasSecondFactor)
        grant.recoveryCodes = admitted.recoveryCodes
        return SignIn(grant: grant, deviceToken: admitted.deviceToken, sessionID: session.id, isNewUser: admitted.isNewUser)
    }

    /// The pipeline every sign-in shares: shape checks, limits, the grant's verifier, the lock,
    /// for a caller that opens its session elsewhere: the sign-in's own writes (a passkey's
    /// use) are stored here, in one transaction.
    /// - Returns: the account, whether it was just created, the flow that proved it (if any),
    ///   and the device token the client should keep.
    package func admit(_ grant: Grant, from client: ClientInfo) async throws -> Admission {
        try await context.nearStorage(hashing: grant.kind.hashesAPassword) {
            var admitted = try await admission(grant, from: client)
            try await storingSignIn { try await context.sessions.storeSignInWrites(admitted.writes) }
            for event in admitted.reports { context.report(event, client: client) }
            admitted.writes = []
            admitted.reports = []
            return admitted
        }
    }

    /// ``admit(_:from:)`` with the sign-in's writes left in the admission, for the session that
    /// opens next to store in its transaction.
    func admission(_ grant: Grant, from client: ClientInfo) async throws -> Admission {
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
        guard let verifier = verifiers[grant.kind] else { throw grant.notOffered }
        try verifier.check(grant)
        let limiter = context.limiter, logger = context.logger
        let attempt = try await limiter.admit(grant.identifier, from: client, now: now)
        let outcome: Verified?
        do {
            outcome = try await verifier.verify(grant, from: client)
        } catch GatehouseError.passkeyRejected(let failure) {
            // A refused passkey counts like a wrong password; the check it failed is logged, never sent.
            try await limiter.recordFailure(attempt, now: now)
            logger.notice("Sign-in refused", metadata: [
                "reason": "passkey_rejected", "check": "\(failure)", "client.address": "\(client.address)",
            ])
            context.report(.signInRefused(account: attempt.account, method: grant.method, reason: .invalidCredentials), client: client)
            throw GatehouseError.passkeyRejected(failure)
        } catch let error as GatehouseError where error.isSpentOrWrongSecret {
            // A wrong, spent or unknown code or link counts like a wrong password, and is audited.
            try await limiter.recordFailure(attempt, now: now)
            let reason: SignInRefusal = if case .linkExpired = error { .linkExpired } else { .invalidCode }
            logger.notice("Sign-in refused", metadata: [
                "reason": "\(reason.rawValue)", "method": "\(grant.method.rawValue)", "account.ref": "\(attempt.account)",
                "client.address": "\(client.address)",
            ])
            context.report(.signInRefused(account: attempt.account, method: grant.method, reason: reason), client: client)
            throw error
        }
        guard let verified = outcome else {
            try await limiter.recordFailure(attempt, now: now)
            logger.notice("Sign-in refused", metadata: [
                "reason": "invalid_credentials", "method": "\(grant.method.rawValue)", "account.ref": "\(attempt.account)",
                "client.address": "\(client.address)",
            ])
            context.report(.signInRefused(account: attempt.account, method: grant.method, reason: .invalidCredentials), client: client)
            throw GatehouseError.invalidCredentials
        }
        let user: UserRecord
        do {
            user = try await admittedUser(verified, attempt: attempt, grant: grant, client: client)
        } catch {
            // Refused all the same: the grant's one-time secret is spent, it cannot be tried again.
            try? await context.sessions.storeSignInWrites(verified.writes.filter(\.spendsASecret))
            throw error
        }
        let success = limiter.success(attempt, now: now)
        return Admission(
            user: user, deviceToken: success.deviceToken, isNewUser: verified.isNewUser,
            hasSecondFactor: verified.hasSecondFactor, flow: verified.flow, recoveryCodes: verified.recoveryCodes, method: verified.method,
            writes: verified.writes + success.writes, reports: verified.reports
        )
    }

    /// The verified account, unless it may not sign in now: deleted past its grace period,
    /// locked, or (where the app requires it) with its email unverified.
    private func admittedUser(_ verified: Verified, attempt: AttemptLimiter.Attempt, grant: Grant, client: ClientInfo) async throws -> UserRecord {
        let limiter = context.limiter, logger = context.logger
        var user = verified.user
        if let due = user.deletionDueAt {
            // Deleted by its owner: gone once the grace period is over, kept by signing in before.
            guard due > now else {
                try await limiter.recordFailure(attempt, now: now)
                context.report(.signInRefused(account: attempt.account, method: grant.method, reason: .invalidCredentials), client: client)
                throw GatehouseError.invalidCredentials
            }
            user = try await context.keepScheduledAccount(user, client: client)
        }
        guard !user.isLocked(at: now) else {
            logger.notice("Sign-in refused", metadata: [
                "reason": "account_locked", "user.id": "\(user.id)", "client.address": "\(client.address)",
            ])
            context.report(
                .signInRefused(account: attempt.account, method: grant.method, reason: .accountLocked, userID: user.id), client: client
            )
            throw GatehouseError.accountLocked
        }
        if settings.accounts.requireVerifiedEmail, grant.kind.mustFindTheEmailVerified, try await context.hasUnverifiedEmail(user) {
            logger.notice("Sign-in refused", metadata: [
                "reason": "email_not_verified", "user.id": "\(user.id)", "client.address": "\(client.address)",
            ])
            context.report(
                .signInRefused(account: attempt.account, method: grant.method, reason: .emailNotVerified, userID: user.id), client: client
            )
            throw GatehouseError.emailNotVerified
        }
        return user
    }

    /// Stores what a sign-in writes; a one-time secret another request spent first refuses it.
    ///
    /// The secrets spent this way are a passkey's challenge and a second factor's code and
    /// challenge: the loser of two requests racing with one proof is refused with the write's
    /// ``SignInWrite/refusalWhenSpent``, and nothing of its sign-in is stored.
    func storingSignIn<T>(_ store: () async throws -> T) async throws -> T {
        do {
            return try await store()
        } catch RepositoryError.secretSpent(let write) {
            throw write.refusalWhenSpent ?? GatehouseError.invalidCredentials
        }
    }

    /// Opens a session with its first credential, in one transaction: the one place sessions begin.
    /// - Parameters:
    ///   - lifetime: seconds until the session ends, however it is used.
    ///   - writes: the sign-in's own writes, stored in the same transaction.
    ///   - reports: events those writes make true, reported once they are stored.
    ///   - credential: the refresh token or web session id that will hold the session.
    func openSession(
        for user: UserRecord, method: SignInMethodName, client: ClientInfo, lifetime: Int, assurance: SessionAssurance,
        writes: [SignInWrite] = [], reports: [SecurityEvent] = [], credential: (SessionRecord) -> SessionCredential
    ) async throws -> SessionRecord {
        let start = now
        let session = SessionRecord(
            id: RecordID.make(), userID: user.id, createdAt: start,
            expiresAt: start.addingTimeInterval(TimeInterval(lifetime)),
            deviceLabel: DeviceLabel.make(userAgent: client.userAgent), address: client.address, lastSeenAt: start, assurance: assurance
        )
        let made = credential(session)
        try await storingSignIn { try await context.sessions.createSession(session, credential: made, with: writes) }
        for event in reports { context.report(event, client: client) }
        let kind = if case .webSession = made { "web" } else { "api" }
        context.logger.info("Sign-in succeeded", metadata: [
            "user.id": "\(user.id)", "session.id": "\(session.id)", "session.kind": "\(kind)", "method": "\(method.rawValue)",
            "client.address": "\(client.address)",
        ])
        // The session's own label: the user agent is read once per sign-in.
        context.report(
            .signInSucceeded(userID: user.id, sessionID: session.id, method: method), address: client.address, device: session.deviceLabel
        )
        return session
    }

    func grant(user: UserRecord, session: SessionRecord, refreshToken: String) async throws -> TokenGrant {
        let access = try await tokens.issue(
            userID: user.id, sessionID: session.id, assurance: session.assurance, anonymous: user.isAnonymous, now: now
        )
        return TokenGrant(
            accessToken: access, refreshToken: refreshToken, expiresIn: tokens.lifetime, user: user.profile, account: user
        )
    }
}

/// A successful sign-in: the token grant and a device token the client should present next time.
package struct SignIn: Sendable {
    package let grant: TokenGrant
    package let deviceToken: String
    /// The session the grant opened.
    package let sessionID: String
    /// Whether the grant created the account (a first Google sign-in): the app shows its profile step.
    package var isNewUser = false
}

/// What a grant's verifier proved: the account, whether it was just created, and the provider
/// flow it came through.
package struct Verified: Sendable {
    package var user: UserRecord
    package var isNewUser = false
    /// Whether the account has a verified second factor, when the verifier's read said
    /// (``PasswordAccount``); `nil`: the `mfa` hint reads it.
    package var hasSecondFactor: Bool?
    package var flow: OIDCFlowRecord?
    /// Recovery codes made by this grant (a first factor's first code), shown once.
    package var recoveryCodes: [String]?
    /// How the sign-in is named when the grant alone cannot say (a flow code: its flow's provider).
    package var method: SignInMethodName?
    /// What the sign-in stores besides its session, in the session's transaction.
    package var writes: [SignInWrite] = []
    /// Events those writes make true (a factor verified), reported once they are stored.
    package var reports: [SecurityEvent] = []
}

/// A grant that passed every limit and its verifier.
package struct Admission: Sendable {
    package let user: UserRecord
    package let deviceToken: String
    package let isNewUser: Bool
    /// As ``Verified/hasSecondFactor``.
    package var hasSecondFactor: Bool?
    package let flow: OIDCFlowRecord?
    package var recoveryCodes: [String]?
    /// The verifier's name for the sign-in, when the grant alone cannot say.
    package var method: SignInMethodName?
    /// The verifier's writes, not yet stored (see ``admit(_:from:)``).
    package var writes: [SignInWrite] = []
    /// As ``Verified/reports``: reported with the writes' storing.
    package var reports: [SecurityEvent] = []
}
