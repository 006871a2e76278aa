import Foundation
import GatehouseModel

/// Passkeys (WebAuthn): adding, listing, renaming and removing them, and the `.passkey` grant's verifier.
///
/// Challenges live in the one-time secret store; the account's user handle is its `passkey`
/// identity. Signing in is the `.passkey` grant through the pipeline, so a refused passkey
/// counts like a wrong password.
package struct PasskeyService: Sendable {
    let context: ServiceContext
    let store: PasskeyStore

    package init(context: ServiceContext, store: PasskeyStore) {
        self.context = context
        self.store = store
    }

    var now: Date { context.now }

    /// Starts adding a passkey to a signed-in account (WebAuthn §5.4).
    ///
    /// The session must have signed in within the last 10 minutes. The challenge is bound to
    /// the session and lives in the one-time secret store; the account's user handle is random
    /// (made here for its first passkey, stored with it).
    package func passkeyRegistrationOptions(for principal: Principal) async throws -> PasskeyCreationOptions {
        try requireRecentSignIn(principal)
        try await context.requireStepUp(principal)
        let user = principal.user
        let existing = try await store.credentials.passkeys(userID: user.id)
        let handle = try await context.users.identities(userID: user.id).first { $0.provider == .passkey }?.subject
            ?? RefreshToken.generate(prefix: "")
        let challenge = RefreshToken.generate(prefix: "")
        let fields = RegistrationChallenge(userID: user.id, sessionID: principal.session.id, handle: handle)
        try await store.challenges.putSecret(OneTimeSecret(
            purpose: .passkeyRegistration, id: RefreshToken.hash(challenge), target: principal.session.id,
            data: try JSONEncoder().encode(fields), createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(store.party.challengeLifetime))
        ))
        let accountName = user.email ?? user.name
        return PasskeyCreationOptions(
            rp: .init(id: store.party.id, name: store.party.name),
            user: .init(id: handle, name: accountName, displayName: user.name.isEmpty ? accountName : user.name),
            challenge: challenge, pubKeyCredParams: PasskeyPublicKey.offeredAlgorithms.map(PasskeyCreationOptions.Parameter.init),
            timeout: store.party.challengeLifetime * 1000,
            excludeCredentials: existing.map { CredentialDescriptor(id: Data($0.credentialID).base64URLEncoded(), transports: $0.transports) }
        )
    }

    /// Finishes adding a passkey (WebAuthn §7.1): consumes the session's challenge, checks the
    /// response, and stores the credential with the account's user handle.
    /// - Parameter name: what lists call it; the device's label when `nil`.
    package func registerPasskey(_ json: PasskeyRegistrationJSON, name: String?, for principal: Principal) async throws -> PasskeyRecord {
        try requireRecentSignIn(principal)
        try await context.requireStepUp(principal)
        let label = try name.map(PasskeyName.check) ?? principal.session.deviceLabel ?? "Passkey"
        do {
            let response = try PasskeyRegistration(json)
            let clientData = try ClientData.parse(response.clientDataJSON)
            guard let secret = try await store.challenges.consumeSecret(
                .passkeyRegistration, id: RefreshToken.hash(clientData.challenge), at: now, unexpiredAt: now
            ), let fields = try? JSONDecoder().decode(RegistrationChallenge.self, from: secret.data),
                fields.sessionID == principal.session.id, fields.userID == principal.user.id
            else { throw PasskeyFailure.challengeExpired }
            let made = try store.party.verifyRegistration(response)
            let record = PasskeyRecord(
                userID: principal.user.id, credentialID: made.credentialID, publicKey: made.publicKey, algorithm: made.algorithm,
                signCount: made.signCount, backupEligible: made.backupEligible, backedUp: made.backedUp, transports: made.transports,
                name: label, createdAt: now
            )
            let handle = IdentityRecord(userID: principal.user.id, provider: .passkey, subject: fields.handle, verifiedAt: now, createdAt: now)
            guard try await store.credentials.addPasskey(record, handle: handle) else { throw PasskeyFailure.userHandleMismatch }
            context.logger.info("Passkey added", metadata: ["user.id": "\(principal.user.id)", "passkey.id": "\(record.id)"])
            context.report(.passkeyAdded(userID: principal.user.id, passkeyID: record.id), address: principal.session.address, device: principal.session.deviceLabel)
            return record
        } catch let failure as PasskeyFailure {
            context.logger.notice("Passkey refused", metadata: ["user.id": "\(principal.user.id)", "check": "\(failure)"])
            throw GatehouseError.passkeyRejected(failure)
        } catch RepositoryError.duplicateIdentity {
            throw GatehouseError.passkeyTaken
        }
    }

    /// Starts a passkey sign-in (WebAuthn §5.5): a discoverable request, so no account is named
    /// and nothing about accounts is revealed.
    ///
    /// Each challenge is a stored row, so they are counted per client address (the sign-in
    /// address limit's size), and one past the limit is not stored; the count and the challenge
    /// commit together.
    package func passkeyAuthenticationOptions(from client: ClientInfo) async throws -> PasskeyRequestOptions {
        let policy = context.settings.abuse
        let challenge = RefreshToken.generate(prefix: "")
        let id = RefreshToken.hash(challenge)
        try await context.nearStorage {
            let secret = OneTimeSecret(
                purpose: .passkeyAuthentication, id: id, target: id, createdAt: now,
                expiresAt: now.addingTimeInterval(TimeInterval(store.party.challengeLifetime))
            )
            try await store.challenges.putSecret(
                secret, admitting: .passkeyChallenges(client.address), maximum: policy.addressLimit, per: policy.addressWindow, at: now
            )
            if Int.random(in: 0..<64) == 0 {
                _ = try? await store.challenges.purgeSecrets([.passkeyAuthentication, .passkeyRegistration], before: now.addingTimeInterval(-3600))
            }
        }
        return PasskeyRequestOptions(challenge: challenge, timeout: store.party.challengeLifetime * 1000, rpId: store.party.id)
    }

    /// The passkey grant's verifier (WebAuthn §7.2): finds the challenge unused and unexpired,
    /// finds the credential and its account by the user handle, checks the assertion, and
    /// returns the challenge's use and the passkey's as writes for the session's transaction.
    ///
    /// The challenge's use so commits with the session, not on its own (issue 41); it is
    /// conditional there, so of two requests with the same assertion only one opens a session
    /// (``SignInWrite/secretConsumed(purpose:id:at:)``). A refused assertion spends its
    /// challenge at once: it cannot be tried again.
    func verifyPasskey(_ assertion: PasskeyAssertion) async throws -> Verified {
        do {
            let clientData = try ClientData.parse(assertion.clientDataJSON)
            let challengeID = RefreshToken.hash(clientData.challenge)
            guard let challenge = try await store.challenges.secret(.passkeyAuthentication, id: challengeID),
                  challenge.consumedAt == nil, challenge.expiresAt > now
            else { throw PasskeyFailure.challengeExpired }
            do {
                return try await checkCredential(of: assertion, clientData: clientData, challengeID: challengeID)
            } catch {
                // The refusal's own answer wins over a failing write, as in the pipeline's refusals.
                _ = try? await store.challenges.consumeSecret(.passkeyAuthentication, id: challengeID, at: now, unexpiredAt: nil)
                throw error
            }
        } catch let failure as PasskeyFailure {
            throw GatehouseError.passkeyRejected(failure)
        }
    }

    /// The checks after the challenge's: the credential, its account and the assertion.
    private func checkCredential(of assertion: PasskeyAssertion, clientData: ClientData, challengeID: String) async throws -> Verified {
        guard let userHandle = assertion.userHandle else { throw PasskeyFailure.malformed("userHandle") }
        let handle = Data(userHandle).base64URLEncoded()
        guard let (credential, owner) = try await store.credentials.passkey(credentialID: assertion.rawID, handle: handle) else {
            throw PasskeyFailure.unknownCredential
        }
        guard let user = owner, user.id == credential.userID else { throw PasskeyFailure.userHandleMismatch }
        let use = try store.party.verifyAssertion(assertion, clientData: clientData, credential: credential)
        if use.cloneWarning {
            context.logger.warning("Passkey counter did not grow", metadata: ["user.id": "\(user.id)", "passkey.id": "\(credential.id)"])
            context.report(.passkeyCloneWarning(userID: user.id, passkeyID: credential.id), address: nil, device: nil)
        }
        // Stored with the session it opens, in one transaction.
        var verified = Verified(user: user)
        verified.writes = [
            .secretConsumed(purpose: .passkeyAuthentication, id: challengeID, at: now),
            .passkeyUsed(credentialID: credential.credentialID, signCount: use.signCount, backedUp: use.backedUp, at: now),
        ]
        return verified
    }

    /// The account's passkeys, oldest first.
    package func passkeys(of userID: String) async throws -> [PasskeyRecord] {
        try await store.credentials.passkeys(userID: userID)
    }

    /// Renames one of the account's passkeys.
    package func renamePasskey(_ id: String, to name: String, for principal: Principal) async throws {
        let checked = try PasskeyName.check(name)
        guard try await store.credentials.renamePasskey(id: id, userID: principal.user.id, to: checked) else {
            throw GatehouseError.notFound
        }
    }

    /// Removes one of the account's passkeys, unless it is the account's last way in: judged in
    /// the removal's own transaction, so two removals that race cannot both pass.
    package func removePasskey(_ id: String, for principal: Principal) async throws {
        try await context.requireStepUp(principal)
        let userID = principal.user.id
        let removed: Bool
        do {
            removed = try await store.credentials.deletePasskey(id: id, userID: userID, keepingAWayIn: true)
        } catch RepositoryError.lastWayIn {
            throw GatehouseError.lastSignInMethod
        }
        guard removed else { throw GatehouseError.notFound }
        context.logger.info("Passkey removed", metadata: ["user.id": "\(userID)", "passkey.id": "\(id)"])
        context.report(.passkeyRemoved(userID: userID, passkeyID: id), address: principal.session.address, device: principal.session.deviceLabel)
    }

    private func requireRecentSignIn(_ principal: Principal) throws {
        guard now.timeIntervalSince(principal.session.createdAt) <= PasskeyStore.reauthenticationWindow else {
            throw GatehouseError.reauthenticationRequired
        }
    }
}

extension PasskeyService: RecoveryParticipant {
    /// A reset ends every passkey: the mail proved the address, not who added them.
    package func accountRecovered(userID: String, from client: ClientInfo?) async throws -> Int {
        let removed = try await store.credentials.deletePasskeys(userID: userID)
        for id in removed {
            context.report(.passkeyRemoved(userID: userID, passkeyID: id), address: client?.address, device: nil)
        }
        return removed.count
    }
}

extension PasskeyService: GrantVerifier {
    package var kinds: [GrantKind] { [.passkey] }

    package func check(_ grant: Grant) throws {}

    package func verify(_ grant: Grant, from client: ClientInfo) async throws -> Verified? {
        guard case .passkey(let assertion) = grant else { return nil }
        return try await verifyPasskey(assertion)
    }
}

/// A passkey's name, as people type it for lists.
enum PasskeyName {
    /// Trims it and refuses an empty name, one over 64 characters, one with control characters,
    /// and one with invisible format characters (bidi overrides and isolates, zero-width spaces:
    /// `evil\u{202E}gnp.exe` would list as another name) or nothing visible.
    static func check(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 64, !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw GatehouseError.invalidRequest("name must be 1 to 64 characters without control characters")
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .format && !Self.joiners.contains($0) }),
              trimmed.unicodeScalars.contains(where: PersonName.isVisible)
        else { throw GatehouseError.invalidRequest("name must show visible characters and no invisible or text-direction ones") }
        return trimmed
    }

    /// The zero-width non-joiner and joiner, which some scripts and emoji need.
    private static let joiners: Set<Unicode.Scalar> = ["\u{200C}", "\u{200D}"]
}
