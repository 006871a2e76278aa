import Foundation
import GatehouseModel
import Logging

/// Email accounts (seed 002): sign-up, verification, reset and password changes, and the
/// `.emailLink` and `.passwordReset` grants' verifiers.
///
/// Every answer is the same, after the same work, whether or not an address has an account.
/// Without a mailer (an app that sends no mail) sign-up and reset are not offered.
package struct EmailAccounts: Sendable {
    let context: ServiceContext
    /// Account mail, when the app sends any.
    let mail: AccountMailer?
    /// The services whose credentials a reset ends (passkeys; second factors).
    let recovery: [any RecoveryParticipant]

    package init(context: ServiceContext, mail: AccountMailer?, recovery: [any RecoveryParticipant] = []) {
        self.context = context
        self.mail = mail
        self.recovery = recovery
    }

    var now: Date { context.now }
    var settings: AuthSettings { context.settings }

    /// Creates an email account and mails its verification (seed 002's "Sign up").
    ///
    /// The same answer, after the same work, whether or not the address has an account: the
    /// shape checks, the password policy, every limit, one hash, one attempt to write. A taken
    /// address gets a mail instead ("you already have an account", with sign-in and reset
    /// links), so only its owner learns anything.
    /// - Returns: the normalised address the mail went to.
    package func signUp(email: String, password: String, name: String, from client: ClientInfo) async throws -> String {
        guard settings.accounts.signUp else { throw GatehouseError.featureNotOffered(.signUp) }
        guard settings.signInMethods.offers(.email) else { throw GatehouseError.methodNotOffered(.email) }
        let mail = try requireMail()
        let address = try checkedEmail(email)
        let name = try ServiceContext.checkedName(name)
        // The address limit before the password policy, whose breached-password check may ask
        // a range API over the network; the mail limits after it, so a refused password does
        // not cost the next try its one mail a minute.
        try await mail.admitAudited(
            .signUpAddress(client.address), maximum: settings.mail.signUpsPerAddressPerHour, per: 3600, account: nil, client, now
        )
        try await context.passwords.check(password, logger: context.logger)
        try await mail.admit(recipient: address, purpose: .emailVerification, from: client, now: now)
        let hash = try await context.hasher.hash(password)
        let account = NewAccount(
            name: PersonName(full: name), identities: [.init(provider: .email, subject: address, verified: false)], passwordHash: hash
        )
        do {
            let user = try await account.create(in: context.users, at: now)
            let secret = try await mail.issue(.emailVerification, userID: user.id, email: address, now: now)
            mail.send(mail.compose(.signUp, to: address, secret: secret), for: client, now: now)
            context.logger.info("Account signed up", metadata: ["user.id": "\(user.id)", "client.address": "\(client.address)"])
            context.report(.signedUp(userID: user.id), client: client)
        } catch RepositoryError.duplicateIdentity {
            // The same write a new address's verification makes, so its code answers alike.
            try await mail.issueDecoy(.emailVerification, email: address, now: now)
            mail.send(mail.compose(.existingAccount, to: address, secret: nil), for: client, now: now)
            context.logger.info("Sign-up for an existing address; its owner was mailed", metadata: ["client.address": "\(client.address)"])
            if let owner = try await context.users.user(email: address) { context.report(.signUpOfExistingAccount(userID: owner.id), client: client) }
        }
        return address
    }

    /// Mails a new verification link to an unverified account; the same answer for every address.
    /// - Returns: the normalised address.
    package func resendVerification(email: String, from client: ClientInfo) async throws -> String {
        let mail = try requireMail()
        let address = try checkedEmail(email)
        try await mail.admit(recipient: address, purpose: .emailVerification, from: client, now: now)
        if let user = try await context.users.user(email: address), try await !context.emailVerified(user) {
            let secret = try await mail.issue(.emailVerification, userID: user.id, email: address, now: now)
            mail.send(mail.compose(.verify, to: address, secret: secret), for: client, now: now)
        } else {
            try await mail.issueDecoy(.emailVerification, email: address, now: now)
        }
        return address
    }

    /// The verification grant's verifier: marks the address verified and returns its account.
    func verifyEmailLink(_ proof: MailProof) async throws -> Verified {
        let mail = try requireMail()
        let fields = try await mail.redeem(.emailVerification, proof, now: now)
        guard let user = try await context.users.user(id: fields.userID), user.email == fields.email else { throw GatehouseError.linkExpired }
        if try await context.users.verifyIdentity(userID: user.id, provider: .email, subject: fields.email, at: now) {
            context.logger.info("Email verified", metadata: ["user.id": "\(user.id)"])
            context.report(.emailVerified(userID: user.id), address: nil, device: nil)
        }
        return Verified(user: user)
    }

    /// The shape checks of a mail grant: the app offers email, and the proof fits its fields.
    func checkMailGrant(_ proof: MailProof) throws {
        guard settings.signInMethods.offers(.email) else { throw GatehouseError.methodNotOffered(.email) }
        _ = try requireMail()
        switch proof {
        case .token(let token):
            guard !token.isEmpty, token.utf8.count <= 128 else { throw GatehouseError.invalidRequest("token must be 1 to 128 bytes") }
        case .code(let email, let code):
            guard !email.isEmpty, email.utf8.count <= PasswordVerifier.maximumIdentifierBytes else {
                throw GatehouseError.invalidRequest("email must be 1 to \(PasswordVerifier.maximumIdentifierBytes) bytes")
            }
            guard !code.isEmpty, code.utf8.count <= 16 else { throw GatehouseError.invalidRequest("code must be 1 to 16 bytes") }
        }
    }

    /// An address in the app's rule, normalised; a 400 naming the rule otherwise.
    package func checkedEmail(_ text: String) throws -> String {
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

    /// The mailer, or the one refusal of a server that sends no account mail.
    func requireMail() throws -> AccountMailer {
        guard let mail else { throw GatehouseError.featureNotOffered(settings.accounts.passwordReset ? .passwordReset : .signUp) }
        return mail
    }
}

extension EmailAccounts: GrantVerifier {
    package var kinds: [GrantKind] { [.emailLink, .passwordReset] }

    package func check(_ grant: Grant) throws {
        switch grant {
        case .emailLink(let proof):
            try checkMailGrant(proof)
        case .passwordReset(let proof, let password):
            guard settings.accounts.passwordReset else { throw GatehouseError.featureNotOffered(.passwordReset) }
            try checkMailGrant(proof)
            if let password { try PasswordShape.check(password) }
        case .password, .phoneCode, .google, .flowCode, .passkey:
            throw grant.kind.notOffered
        }
    }

    package func verify(_ grant: Grant) async throws -> Verified? {
        switch grant {
        case .emailLink(let proof): try await verifyEmailLink(proof)
        case .passwordReset(let proof, let password): try await verifyPasswordReset(proof, newPassword: password)
        case .password, .phoneCode, .google, .flowCode, .passkey: nil
        }
    }
}
