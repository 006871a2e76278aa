import Foundation

extension ServiceContext {
    /// Proves a signed-in person's current password before a sensitive change (a new password,
    /// deleting the account).
    ///
    /// Counted against the account like a sign-in (its back-off and hourly budget apply); a
    /// wrong one is reported and is ``GatehouseError/invalidCredentials``, as is any password
    /// for an account that has none.
    func proveCurrentPassword(_ password: String, of user: UserRecord, from client: ClientInfo) async throws {
        let attempt = try await limiter.admit(user.email ?? "user:\(user.id)", from: client, now: now)
        let stored = try await users.passwordHash(userID: user.id)
        guard try await hasher.verify(password, against: stored ?? dummyHash), stored != nil else {
            try await limiter.recordFailure(attempt, now: now)
            report(.passwordChangeRefused(userID: user.id), client: client)
            throw GatehouseError.invalidCredentials
        }
        try await limiter.recordSuccess(attempt)
    }

    /// How recent a sign-in proves it is the person, without a password.
    package static let recentSignIn: TimeInterval = 300

    /// Proves the person again before a change that moves the account (a new email): a recent
    /// second factor where the account has one, then the password when given, or else a sign-in
    /// of the last five minutes. A guest has no other proof than its session, so its session
    /// suffices.
    func proveRecently(_ principal: Principal, password: String?, from client: ClientInfo) async throws {
        try await requireStepUp(principal)
        if let password {
            try PasswordShape.check(password)
            try await proveCurrentPassword(password, of: principal.user, from: client)
        } else if !principal.user.isAnonymous, now.timeIntervalSince(principal.session.createdAt) > Self.recentSignIn {
            throw GatehouseError.reauthenticationRequired
        }
    }

    /// An address in the app's rule, normalised; a 400 naming the rule otherwise.
    func checkedEmail(_ text: String) throws -> String {
        guard text.utf8.count <= PasswordVerifier.maximumIdentifierBytes else {
            throw GatehouseError.invalidRequest("email must be at most \(PasswordVerifier.maximumIdentifierBytes) bytes")
        }
        let rules = settings.login.rules
        let address = rules.normalizedEmail(text)
        if let issue = rules.validateEmail(address) {
            throw GatehouseError.invalidRequest(issue.message(for: .email, in: settings.login.messages))
        }
        return address
    }
}

extension ServiceContext {
    /// Keeps an account its owner deleted with a grace period: a sign-in before it ends cancels
    /// the deletion (issue 39, `accounts.deletionGraceDays`).
    func keepScheduledAccount(_ user: UserRecord, client: ClientInfo) async throws -> UserRecord {
        var user = user
        user.deletionDueAt = nil
        try await users.updateUser(user)
        logger.notice("Account kept: a sign-in cancelled its scheduled deletion", metadata: ["user.id": "\(user.id)"])
        report(.accountDeletionCancelled(userID: user.id), client: client)
        return user
    }
}
