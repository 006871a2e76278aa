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

    /// Seconds between two mails of one purpose to one address: how long "Resend email" waits.
    package var resendInterval: Int { mail?.policy.recipientInterval ?? 0 }
    var settings: AuthSettings { context.settings }

    /// Creates an email account and mails its verification (seed 002's "Sign up").
    ///
    /// The same answer, after the same work, whether or not the address has an account: the
    /// shape checks, the password policy, every limit, one hash, one attempt to write. A taken
    /// address gets a mail instead ("you already have an account", with sign-in and reset
    /// links), so only its owner learns anything; but an address whose account nobody ever
    /// proved (someone else may have signed it up first) gets a verification mail instead, whose
    /// use where this sign-up was made gives the account to whoever proves the address.
    /// - Returns: the normalised address the mail went to, and the binding the client presents
    ///   when it follows the link: a sign-up mail's link signs in only where the sign-up was made.
    package func signUp(email: String, password: String, name: String, from client: ClientInfo) async throws -> SignUpReceipt {
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
        // Hashed with a taken address's own salt and cost (one read and one hash either way),
        // so a sign-in can compare it with the account's in the same computation.
        let stored = try await context.users.passwordAccount(provider: .email, subject: address)?.passwordHash
        let hash = try await context.hasher.hash(password, likeStored: stored)
        let account = NewAccount(
            name: PersonName(full: name), identities: [.init(provider: .email, subject: address, verified: false)], passwordHash: hash
        )
        let binding = RefreshToken.generate(prefix: "ghs_")
        do {
            let user = try await account.create(in: context.users, at: now)
            let fields = MailSecretFields(userID: user.id, email: address, binding: RefreshToken.hash(binding))
            try await mail.send(.signUp, .emailVerification, fields, for: client, now: now)
            context.logger.info("Account signed up", metadata: ["user.id": "\(user.id)", "client.address": "\(client.address)"])
            context.report(.signedUp(userID: user.id), client: client)
        } catch RepositoryError.duplicateIdentity {
            let owner = try await context.users.user(email: address)
            if let owner { context.report(.signUpOfExistingAccount(userID: owner.id), client: client) }
            if let owner, try await !context.emailVerified(owner) {
                // Nobody ever proved this address: its account may be someone's pre-hijack. The
                // mail's owner, using it where this sign-up was made, takes the account over with
                // this password (see `verifyEmailLink`).
                let fields = MailSecretFields(
                    userID: owner.id, email: address, binding: RefreshToken.hash(binding), pendingPasswordHash: hash, pendingName: name
                )
                try await mail.send(.signUp, .emailVerification, fields, for: client, now: now)
                context.logger.info("Sign-up for an unproved address; its mail can take the account over", metadata: [
                    "user.id": "\(owner.id)", "client.address": "\(client.address)",
                ])
            } else {
                // The same write a new address's verification makes, so its code answers alike;
                // it keeps the password, so signing in with it answers as a new address would.
                try await mail.issueDecoy(
                    .emailVerification, email: address, pendingPasswordHash: pendingKept(hash),
                    notice: mail.compose(.existingAccount, to: address, secret: nil), for: client, now: now
                )
                context.logger.info("Sign-up for an existing address; its owner was mailed", metadata: ["client.address": "\(client.address)"])
            }
        }
        return SignUpReceipt(address: address, binding: binding)
    }

    /// Mails a new verification link to an unverified account; the same answer for every address.
    ///
    /// The new link is bound as the sign-up's was (or to the asking browser's sign-up binding),
    /// so a resend never makes a link that signs in anywhere. For a taken address with a
    /// pending sign-up, its owner gets the "you already have an account" notice instead, and
    /// the pending password is kept.
    /// - Returns: the normalised address.
    package func resendVerification(email: String, from client: ClientInfo) async throws -> String {
        let mail = try requireMail()
        let address = try checkedEmail(email)
        try await mail.admit(recipient: address, purpose: .emailVerification, from: client, now: now)
        let previous = try await mail.secrets.secret(.emailVerification, target: address)
            .flatMap(\.mailFields)
        let binding = previous?.binding ?? client.signUpBinding.map(RefreshToken.hash)
        if let user = try await context.users.user(email: address), try await !context.emailVerified(user) {
            var fields = MailSecretFields(userID: user.id, email: address, binding: binding)
            if previous?.userID == user.id { (fields.pendingPasswordHash, fields.pendingName) = (previous?.pendingPasswordHash, previous?.pendingName) }
            try await mail.send(.verify, .emailVerification, fields, for: client, now: now)
        } else if let pending = previous?.pendingPasswordHash, previous?.userID.isEmpty == true {
            try await mail.issueDecoy(
                .emailVerification, email: address, pendingPasswordHash: pending,
                notice: mail.compose(.existingAccount, to: address, secret: nil), for: client, now: now
            )
        } else {
            try await mail.issueDecoy(.emailVerification, email: address, standingIn: .verify, for: client, now: now)
        }
        return address
    }

    /// A taken address's pending password, kept only where the app requires verified emails
    /// (elsewhere a new address's account signs in at once, which a pending one cannot mimic).
    private func pendingKept(_ hash: String) -> String? {
        settings.accounts.requireVerifiedEmail ? hash : nil
    }

    /// The verification grant's verifier: marks the address verified and returns its account.
    ///
    /// A sign-up's mail is bound to the browser or app that signed up (``SignUpReceipt/binding``):
    /// its link signs in only there; anywhere else it verifies the address and answers
    /// ``GatehouseError/signInToContinue``, so nobody is signed in to an account whose password
    /// someone else chose. A re-sign-up of an address nobody had proved takes the account over
    /// only where it was made: its password and name replace the old ones, and every session,
    /// passkey and factor of the old account ends.
    func verifyEmailLink(_ proof: MailProof, from client: ClientInfo) async throws -> Verified {
        let mail = try requireMail()
        let fields = try await mail.redeem(.emailVerification, proof, now: now)
        guard var user = try await context.users.user(id: fields.userID), user.email == fields.email else { throw GatehouseError.linkExpired }
        let bound = fields.binding != nil && client.signUpBinding.map(RefreshToken.hash) == fields.binding
        if let hash = fields.pendingPasswordHash, bound, !user.isLocked(at: now) {
            user = try await takeOver(user, hash: hash, name: fields.pendingName, client: client)
        }
        if try await context.users.verifyIdentity(userID: user.id, provider: .email, subject: fields.email, at: now) {
            context.logger.info("Email verified", metadata: ["user.id": "\(user.id)"])
            context.report(.emailVerified(userID: user.id), address: nil, device: nil)
        }
        let signsIn = switch proof {
        case .token: bound
        case .code: fields.pendingPasswordHash == nil || bound
        }
        guard signsIn else { throw GatehouseError.signInToContinue }
        return Verified(user: user)
    }

    /// Gives an account nobody had proved to the person who just proved its address where they
    /// signed up: their password and name, and nothing of the old one's sessions or credentials.
    private func takeOver(_ user: UserRecord, hash: String, name: String?, client: ClientInfo) async throws -> UserRecord {
        var user = user
        try await context.users.setPassword(userID: user.id, hash: hash, at: now)
        if let name, !name.isEmpty {
            user.personName = PersonName(full: name)
            try await context.users.updateUser(user)
        }
        _ = try await context.sessions.revokeSessions(userID: user.id, keeping: nil, at: now, reason: .accountRecovered)
        var removed = 0
        for participant in recovery { removed += try await participant.accountRecovered(userID: user.id, from: client) }
        context.logger.notice("An unproved account was taken over by its address's owner", metadata: [
            "user.id": "\(user.id)", "credentials.removed": "\(removed)", "client.address": "\(client.address)",
        ])
        context.report(.passwordChanged(userID: user.id, method: .reset), client: client)
        return user
    }

    /// The shape checks of a mail grant: the app offers email, and the proof fits its fields.
    func checkMailGrant(_ proof: MailProof) throws {
        guard settings.signInMethods.offers(.email) else { throw GatehouseError.methodNotOffered(.email) }
        try checkProofShape(proof)
    }

    /// A proof's fields within their bounds, with a mailer to check them against.
    func checkProofShape(_ proof: MailProof) throws {
        _ = try requireMail()
        try proof.checkShape()
    }

    /// An address in the app's rule, normalised; a 400 naming the rule otherwise.
    package func checkedEmail(_ text: String) throws -> String {
        try context.checkedEmail(text)
    }

    /// The mailer, or the one refusal of a server that sends no account mail.
    func requireMail() throws -> AccountMailer {
        guard let mail else { throw GatehouseError.featureNotOffered(settings.accounts.passwordReset ? .passwordReset : .signUp) }
        return mail
    }
}

extension EmailAccounts: PendingPasswords {
    package func pendingPasswordHash(for email: String) async throws -> String? {
        guard let mail, let secret = try await mail.secrets.secret(.emailVerification, target: email), secret.isLive(at: now)
        else { return nil }
        return secret.mailFields?.pendingPasswordHash
    }
}

extension EmailAccounts: GrantVerifier {
    package var kinds: [GrantKind] { [.emailLink, .emailCode, .passwordReset] }

    package func check(_ grant: Grant) throws {
        switch grant {
        case .emailLink(let proof):
            try checkMailGrant(proof)
        case .emailCode(let proof):
            try checkSignInCodeGrant(proof)
        case .passwordReset(let proof, let password):
            guard settings.accounts.passwordReset else { throw GatehouseError.featureNotOffered(.passwordReset) }
            try checkMailGrant(proof)
            if let password { try PasswordShape.check(password) }
        case .password, .phoneCode, .provider, .flowCode, .passkey, .secondFactor, .anonymous:
            throw grant.kind.notOffered
        }
    }

    package func verify(_ grant: Grant, from client: ClientInfo) async throws -> Verified? {
        switch grant {
        case .emailLink(let proof): try await verifyEmailLink(proof, from: client)
        case .emailCode(let proof): try await verifySignInCode(proof, from: client)
        case .passwordReset(let proof, let password): try await verifyPasswordReset(proof, newPassword: password)
        case .password, .phoneCode, .provider, .flowCode, .passkey, .secondFactor, .anonymous: nil
        }
    }
}
