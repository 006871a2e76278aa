import Foundation
import LoginCore

/// What an operator changes about an account (the admin API's `PUT`, `users update`): each
/// field left `nil` stays as it is.
public struct AccountChange: Sendable, Equatable {
    public var email: String?
    public var phone: String?
    public var password: String?
    public var name: PersonName?
    /// Marks the (new or current) email verified.
    public var emailConfirmed: Bool?
    /// Marks the (new or current) phone verified.
    public var phoneConfirmed: Bool?
    public var ban: BanDuration?

    public init(
        email: String? = nil, phone: String? = nil, password: String? = nil, name: PersonName? = nil, emailConfirmed: Bool? = nil,
        phoneConfirmed: Bool? = nil, ban: BanDuration? = nil
    ) {
        self.email = email
        self.phone = phone
        self.password = password
        self.name = name
        self.emailConfirmed = emailConfirmed
        self.phoneConfirmed = phoneConfirmed
        self.ban = ban
    }
}

/// The admin API's operations (Supabase's `/admin/users`), shared with the CLI.
extension UserAdministration {
    /// Creates an account with an email or a phone (or both), a password or none.
    public func create(
        email: String?, phone: String?, password: String?, name: PersonName, emailConfirmed: Bool, phoneConfirmed: Bool
    ) async throws -> UserRecord {
        var identities: [NewAccount.Identity] = []
        if let email { identities.append(.init(provider: .email, subject: try checkedEmail(email), verified: emailConfirmed)) }
        if let phone { identities.append(.init(provider: .phone, subject: try e164(phone), verified: phoneConfirmed)) }
        guard !identities.isEmpty else { throw AdministrationError.invalidEmail("An email or a phone is required") }
        if let password { try await checkNewPassword(password) }
        var passwordHash: String?
        if let password { passwordHash = try await hasher.hash(password) }
        let account = NewAccount(name: try Self.checked(name), identities: identities, passwordHash: passwordHash)
        do {
            return reported(.create, try await account.create(in: users, at: clock()))
        } catch RepositoryError.duplicateIdentity {
            throw email.map { AdministrationError.emailTaken(rules.normalizedEmail($0)) } ?? AdministrationError.phoneTaken(phone ?? "")
        }
    }

    /// Applies a change; a new password or a ban ends the account's sessions.
    @discardableResult
    public func update(_ selector: AccountSelector, with change: AccountChange) async throws -> UserRecord {
        var user = try await account(selector)
        let now = clock()
        if let password = change.password { try await checkNewPassword(password) }
        if let name = change.name {
            user.personName = try Self.checked(name)
            try await users.updateUser(user)
        }
        let identities = try await users.identities(userID: user.id)
        try await setIdentity(.email, change.email.map(checkedEmail), verified: change.emailConfirmed, of: user, among: identities, at: now)
        try await setIdentity(.phone, change.phone.map(e164), verified: change.phoneConfirmed, of: user, among: identities, at: now)
        if let password = change.password {
            try await users.setPassword(userID: user.id, hash: try await hasher.hash(password), at: now)
            try await endSessions(of: user, at: now, reason: .passwordChanged)
        }
        if let ban = change.ban { try await self.ban(user, ban, at: now) }
        let updated = try await account(.id(user.id))
        // A new password is its own audited act, which also tells the owner (a security notice).
        if change.password != nil { reported(.setPassword, updated) }
        return reported(.update, updated)
    }

    /// Bans an account for a time (ending its sessions) or lifts a ban or lock.
    public func ban(_ selector: AccountSelector, for duration: BanDuration) async throws {
        let user = try await account(selector)
        try await ban(user, duration, at: clock())
        reported(duration == .lift ? .unban : .ban, user)
    }

    /// One page of accounts (1-based), and how many there are.
    public func page(_ page: Int, perPage: Int) async throws -> (users: [UserRecord], total: Int) {
        try await users.users(offset: (max(1, page) - 1) * perPage, limit: perPage)
    }

    /// The account's identities, for answers that list them.
    public func identities(of user: UserRecord) async throws -> [IdentityRecord] {
        try await users.identities(userID: user.id)
    }

    private func ban(_ user: UserRecord, _ duration: BanDuration, at now: Date) async throws {
        var user = user
        switch duration {
        case .lift:
            (user.lockedAt, user.lockedUntil) = (nil, nil)
        case .seconds(let seconds):
            // A ban never shortens a lock: an account locked without an end stays locked.
            if user.lockedAt == nil || user.lockedUntil != nil {
                (user.lockedAt, user.lockedUntil) = (now, now.addingTimeInterval(seconds))
            }
        }
        try await users.updateUser(user)
        if duration != .lift { try await endSessions(of: user, at: now, reason: .banned) }
    }

    /// Replaces or re-verifies the account's identity of `provider`.
    private func setIdentity(
        _ provider: IdentityProvider, _ subject: String?, verified: Bool?, of user: UserRecord, among identities: [IdentityRecord], at now: Date
    ) async throws {
        let current = identities.first { $0.provider == provider }
        guard let subject = subject ?? current?.subject else { return }
        let isVerified = verified ?? (subject == current?.subject ? current?.verifiedAt != nil : false)
        guard subject != current?.subject || isVerified != (current?.verifiedAt != nil) else { return }
        let record = IdentityRecord(
            userID: user.id, provider: provider, subject: subject, verifiedAt: isVerified ? (current?.verifiedAt ?? now) : nil,
            createdAt: current?.createdAt ?? now
        )
        do {
            try await users.replaceIdentity(record)
        } catch RepositoryError.duplicateIdentity {
            throw provider == .email ? AdministrationError.emailTaken(subject) : AdministrationError.phoneTaken(subject)
        }
    }

    private func checkedEmail(_ email: String) throws -> String {
        let normalized = rules.normalizedEmail(email)
        if let issue = rules.validateEmail(normalized) {
            throw AdministrationError.invalidEmail(issue.message(for: .email, in: MessageCatalogue()))
        }
        return normalized
    }

    private func e164(_ phone: String) throws -> String {
        // GoTrue writes numbers without their `+` (`15555550100`).
        let text = phone.first == "+" || phone.first?.isNumber == false ? phone : "+" + phone
        guard let number = numbers.parse(text, region: ""), number.isValid else { throw AdministrationError.invalidPhone(phone) }
        return number.e164
    }
}
