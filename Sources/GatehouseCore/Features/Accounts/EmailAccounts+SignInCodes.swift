import Foundation
import GatehouseModel
import Logging

extension EmailAccounts {
    /// Mails a sign-in code and link to an address (`signIn.methods` lists `emailCode`); the same
    /// answer, after the same limits and writes, for every address.
    ///
    /// An address with an account gets the mail. One with none gets it only when the request
    /// asked to create the account (`createUser`, GoTrue's `create_user`) and the app allows
    /// sign-up; its code creates the account when used. Otherwise a decoy secret is stored (it
    /// answers wrong codes exactly as a real one) and nothing is sent. One code lives per address:
    /// a new request replaces the old one.
    /// - Returns: the normalised address.
    package func sendSignInCode(email: String, createUser: Bool, name: String? = nil, from client: ClientInfo) async throws -> String {
        guard settings.signInMethods.offers(.emailCode) else { throw GatehouseError.methodNotOffered(.emailCode) }
        let mail = try requireMail()
        let address = try checkedEmail(email)
        let name = try name.map(ServiceContext.checkedName)
        try await mail.admit(recipient: address, purpose: .emailSignIn, from: client, now: now)
        let fields: MailSecretFields? = if let user = try await context.users.user(email: address) {
            MailSecretFields(userID: user.id, email: address)
        } else if createUser, settings.accounts.signUp {
            MailSecretFields(userID: "", email: address, pendingName: name, createsAccount: true)
        } else {
            nil
        }
        guard let fields else {
            try await mail.issueDecoy(.emailSignIn, email: address, standingIn: .signInCode, for: client, now: now)
            return address
        }
        try await mail.send(.signInCode, .emailSignIn, fields, for: client, now: now)
        context.logger.info("Sign-in code mailed", metadata: [
            "user.id": "\(fields.userID)", "creates": "\(fields.createsAccount == true)", "client.address": "\(client.address)",
        ])
        return address
    }

    /// Whether a mailed proof is a sign-in code's rather than a verification's: GoTrue's
    /// `verify type=email` takes both, and the live secret says which it is.
    package func isSignInCode(_ proof: MailProof) async throws -> Bool {
        guard settings.signInMethods.offers(.emailCode), let mail else { return false }
        let secret = switch proof {
        case .token(let token): try await mail.secrets.secret(.emailSignIn, id: RefreshToken.hash(token))
        case .code(let email, _): try await mail.secrets.secret(.emailSignIn, target: EmailAddress.normalized(email))
        }
        return secret?.isLive(at: now) == true
    }

    /// The sign-in code's verifier: the account the code was mailed for (made now if the
    /// request asked for it), its address marked verified, since using the code proves it.
    ///
    /// An account whose address nobody had proved (someone may have signed it up to take it
    /// over later) is given to the address's owner clean: its password is replaced with one
    /// nobody knows, and its sessions, passkeys and factors end.
    func verifySignInCode(_ proof: MailProof, from client: ClientInfo) async throws -> Verified {
        let mail = try requireMail()
        let fields = try await mail.redeem(.emailSignIn, proof, now: now)
        if fields.createsAccount == true, fields.userID.isEmpty {
            return try await createAccount(for: fields, from: client)
        }
        guard let user = try await context.users.user(id: fields.userID), user.email == fields.email else { throw GatehouseError.linkExpired }
        return try await verifyOwner(user, fields: fields, client: client)
    }

    /// Makes the account a sign-in code asked for; a race with another way of making it signs
    /// in to the account that won, since the code proved its address.
    private func createAccount(for fields: MailSecretFields, from client: ClientInfo) async throws -> Verified {
        let account = NewAccount(
            name: PersonName(full: fields.pendingName ?? ""), identities: [.init(provider: .email, subject: fields.email, verified: true)],
            passwordHash: nil
        )
        do {
            let user = try await account.create(in: context.users, at: now)
            context.logger.info("Account signed up", metadata: ["user.id": "\(user.id)", "method": "email_code"])
            context.report(.signedUp(userID: user.id), client: client)
            return Verified(user: user, isNewUser: true)
        } catch RepositoryError.duplicateIdentity {
            guard let owner = try await context.users.user(email: fields.email) else { throw GatehouseError.linkExpired }
            return try await verifyOwner(owner, fields: fields, client: client)
        }
    }

    /// Signs in the account whose address the code proved: the address is marked verified, and
    /// an account nobody had proved it for is first cleared of what someone else set up.
    private func verifyOwner(_ user: UserRecord, fields: MailSecretFields, client: ClientInfo) async throws -> Verified {
        if try await context.hasUnverifiedEmail(user), !user.isLocked(at: now) {
            try await clearUnprovedCredentials(of: user, client: client)
        }
        if try await context.users.verifyIdentity(userID: user.id, provider: .email, subject: fields.email, at: now) {
            context.report(.emailVerified(userID: user.id), address: nil, device: nil)
        }
        return Verified(user: user)
    }

    /// Ends what someone other than the address's owner may have set up on an account nobody
    /// had proved the address of: the password (replaced by a random one), sessions, passkeys
    /// and factors.
    private func clearUnprovedCredentials(of user: UserRecord, client: ClientInfo) async throws {
        if try await context.users.passwordHash(userID: user.id) != nil {
            let unknown = RefreshToken.generate(prefix: "")
            try await context.users.setPassword(userID: user.id, hash: try await context.hasher.hash(unknown), at: now)
        }
        _ = try await context.sessions.revokeSessions(userID: user.id, keeping: nil, at: now, reason: .accountRecovered)
        var removed = 0
        for participant in recovery { removed += try await participant.accountRecovered(userID: user.id, from: client) }
        context.logger.notice("An unproved account was claimed by its address's owner with a sign-in code", metadata: [
            "user.id": "\(user.id)", "credentials.removed": "\(removed)", "client.address": "\(client.address)",
        ])
    }

    /// The shape checks of a sign-in code's grant.
    func checkSignInCodeGrant(_ proof: MailProof) throws {
        guard settings.signInMethods.offers(.emailCode) else { throw GatehouseError.methodNotOffered(.emailCode) }
        try checkProofShape(proof)
    }
}
