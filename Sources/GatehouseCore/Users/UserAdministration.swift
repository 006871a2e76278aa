import Foundation
import Logging
import LoginCore

/// Account management for operators: create, list, lock, unlock, delete, set a password.
///
/// Emails and passwords are checked with LoginCore's rules, so an account can always sign in
/// through the login screen that shares those rules.
public struct UserAdministration: Sendable {
    package let users: any UserRepository
    package let sessions: any SessionRepository
    package let hasher: PasswordHasher
    package let rules: FieldRules
    package let numbers: any PhoneNumberReader
    package let clock: @Sendable () -> Date
    /// Where each change is reported (the audit log), as done by ``actor``.
    package let events: (any EventSink)?
    /// Who is administering: `cli:<user>` for the CLI, `service_role` for the admin API.
    package let actor: AuditActor
    /// The new-password policy sign-up and reset apply (length, common list, breach check);
    /// `nil` only where an operator asked for a weak password on purpose (demo and test data).
    package var passwordPolicy: PasswordPolicy?
    /// Second factors, where the repository keeps them (every SQL one does).
    package let factors: (any FactorRepository & FactorChallengeRepository)?
    /// Runs before an account is deleted: the server revokes its providers' tokens there
    /// (Apple requires it, App Store guideline 5.1.1(v)).
    package var beforeDeleting: (@Sendable (UserRecord) async throws -> Void)?

    /// Creates an administration over a repository.
    /// - Parameters:
    ///   - repository: where accounts live.
    ///   - numbers: how phone numbers are read (`LibPhoneNumber()`).
    ///   - hasher: how new passwords are hashed.
    ///   - rules: the email and password rules; seed 000's by default.
    ///   - clock: the time stamps' source.
    ///   - events: where every change is reported, with `actor` as who made it.
    ///   - passwordPolicy: what a new password must pass; `nil` for shape only.
    package init(
        repository: some UserRepository & SessionRepository, numbers: any PhoneNumberReader, hasher: PasswordHasher = PasswordHasher(),
        rules: FieldRules = FieldRules(), clock: @escaping @Sendable () -> Date = { Date() }, events: (any EventSink)? = nil,
        actor: AuditActor = .cli, passwordPolicy: PasswordPolicy? = PasswordPolicy()
    ) {
        self.passwordPolicy = passwordPolicy
        self.events = events
        self.actor = actor
        users = repository
        sessions = repository
        factors = repository as? any FactorRepository & FactorChallengeRepository
        self.hasher = hasher
        self.rules = rules
        self.numbers = numbers
        self.clock = clock
    }

    /// Adds an account whose one-line name is split at its first space, and returns it.
    @discardableResult
    public func create(email: String, name: String, password: String) async throws -> UserRecord {
        try await create(email: email, name: PersonName(full: name), password: password)
    }

    /// Adds an account and returns it.
    @discardableResult
    public func create(email: String, name: PersonName, password: String, emailVerified: Bool = true) async throws -> UserRecord {
        // Normalised first, as sign-in does, so whatever is created can be signed in to.
        let normalized = rules.normalizedEmail(email)
        if let issue = rules.validateEmail(normalized) {
            throw AdministrationError.invalidEmail(issue.message(for: .email, in: MessageCatalogue()))
        }
        let name = try Self.checked(name)
        try await checkNewPassword(password)
        let account = NewAccount(
            name: name, identities: [.init(provider: .email, subject: normalized, verified: emailVerified)],
            passwordHash: try await hasher.hash(password)
        )
        do {
            return reported(.create, try await account.create(in: users, at: clock()))
        } catch RepositoryError.duplicateIdentity {
            throw AdministrationError.emailTaken(normalized)
        }
    }

    /// Adds an account that signs in with its phone (no email, no password) and returns it.
    /// - Parameters:
    ///   - phone: a full `+…` number, or a national one dialled in `region`.
    ///   - region: the region a national number is read in.
    @discardableResult
    public func create(phone: String, region: String = "", name: String) async throws -> UserRecord {
        guard let number = numbers.parse(phone, region: region), number.isValid else {
            throw AdministrationError.invalidPhone(phone)
        }
        let name = try Self.checked(PersonName(full: name))
        do {
            return reported(.create, try await NewAccount.phone(number.e164, name: name).create(in: users, at: clock()))
        } catch RepositoryError.duplicateIdentity {
            throw AdministrationError.phoneTaken(number.e164)
        }
    }

    /// The name after the one name rule (``PersonName/checked(_:)``), its two parts kept.
    package static func checked(_ name: PersonName) throws -> PersonName {
        do {
            _ = try PersonName.checked(name.full)
        } catch {
            throw AdministrationError.invalidName(error.message)
        }
        return PersonName(first: name.first.precomposedStringWithCanonicalMapping, last: name.last.precomposedStringWithCanonicalMapping)
    }

    /// The account's phone (E.164), if it signs in by phone.
    public func phone(of user: UserRecord) async throws -> String? {
        try await users.identities(userID: user.id).first { $0.provider == .phone }?.subject
    }

    /// Every account, oldest first.
    public func list() async throws -> [UserRecord] {
        try await users.allUsers()
    }

    /// The account an operator names, by its id, its email or its phone: every operation below
    /// finds its account here, once.
    public func account(_ selector: AccountSelector) async throws -> UserRecord {
        switch selector {
        case .email(let email):
            return try await find(email)
        case .id(let id):
            guard let user = try await users.user(id: id) else { throw AdministrationError.noSuchAccount("the id \(id)") }
            return user
        case .phone(let phone, let region):
            guard let number = numbers.parse(phone, region: region), number.isValid else {
                throw AdministrationError.invalidPhone(phone)
            }
            guard let user = try await users.user(provider: .phone, subject: number.e164) else {
                throw AdministrationError.noSuchAccount("the phone \(number.e164)")
            }
            return user
        }
    }

    /// Locks or unlocks an account; locking also ends its sessions.
    ///
    /// A lock has no end, whatever ban came before it (a ban's end time is cleared, so an
    /// ended ban can never make a lock a no-op); unlocking lifts a lock and a ban alike.
    public func setLocked(_ locked: Bool, account selector: AccountSelector) async throws {
        var user = try await account(selector)
        let now = clock()
        if locked {
            user.lockedAt = user.isLocked(at: now) ? (user.lockedAt ?? now) : now
            user.lockedUntil = nil
        } else {
            (user.lockedAt, user.lockedUntil) = (nil, nil)
        }
        try await users.updateUser(user)
        if locked { try await endSessions(of: user, at: clock(), reason: .accountLocked) }
        reported(locked ? .lock : .unlock, user)
    }

    /// Replaces a password and ends every session signed in with the old one (seed 001 edge case).
    public func setPassword(_ password: String, account selector: AccountSelector) async throws {
        try await checkNewPassword(password)
        let user = try await account(selector)
        let changedAt = clock()
        try await users.setPassword(userID: user.id, hash: try await hasher.hash(password), at: changedAt)
        try await endSessions(of: user, at: changedAt, reason: .passwordChanged)
        reported(.setPassword, user)
    }

    /// Removes an account and its sessions.
    public func delete(account selector: AccountSelector) async throws {
        let user = try await account(selector)
        try await beforeDeleting?(user)
        _ = try await users.deleteUser(id: user.id)
        reported(.delete, user)
    }

    /// Ends every session of the account, and reports it when there were any.
    package func endSessions(of user: UserRecord, at date: Date, reason: SessionEndReason) async throws {
        let ended = try await sessions.revokeSessions(userID: user.id, keeping: nil, at: date, reason: reason)
        if ended > 0 { events?.record(.sessionEnded(userID: user.id, sessionID: nil, reason: reason), at: date, address: nil, device: nil) }
    }

    /// Reports an operator's change to `user` and returns it.
    @discardableResult
    package func reported(_ action: AdminAction, _ user: UserRecord) -> UserRecord {
        events?.record(.administered(actor: actor, action: action, userID: user.id), at: clock(), address: nil, device: nil)
        return user
    }

    /// ``setLocked(_:account:)`` for the account with this email.
    public func setLocked(_ locked: Bool, email: String) async throws {
        try await setLocked(locked, account: .email(email))
    }

    /// ``setPassword(_:account:)`` for the account with this email.
    public func setPassword(_ password: String, email: String) async throws {
        try await setPassword(password, account: .email(email))
    }

    /// ``delete(account:)`` for the account with this email.
    public func delete(email: String) async throws {
        try await delete(account: .email(email))
    }

    private func find(_ email: String) async throws -> UserRecord {
        guard let user = try await users.user(email: rules.normalizedEmail(email)) else {
            throw AdministrationError.noSuchUser(rules.normalizedEmail(email))
        }
        return user
    }

    /// The shape rules, then the one new-password policy: what an operator sets passes what a
    /// person choosing it at sign-up or reset would have to.
    package func checkNewPassword(_ password: String) async throws {
        if let issue = rules.validatePassword(password) {
            throw AdministrationError.invalidPassword(issue.message(for: .password, in: MessageCatalogue()))
        }
        do {
            try await passwordPolicy?.check(password, logger: Logger(label: "gatehouse.admin"))
        } catch GatehouseError.passwordRejected(let rejection) {
            throw AdministrationError.invalidPassword(rejection.message)
        }
    }
}

/// How an operator names an account: its id, its email, or its phone (a full `+…` number, or a
/// national one dialled in `region`).
public enum AccountSelector: Sendable, Equatable {
    case id(String)
    case email(String)
    case phone(String, region: String)
}
