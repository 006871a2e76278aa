import Foundation
import GatehouseModel

extension SignInPipeline {
    /// Steps a signed-in API session up to `aal2` with a second factor's answer or a passkey.
    ///
    /// The grant goes through the same limits and verifier as any sign-in and must prove the
    /// signed-in account. A new session then takes the old one's place (which ends as
    /// ``SessionEndReason/steppedUp``), carrying its methods and the new one, so every token of
    /// the old session stops working and the new tokens say `aal2`. The new session, the old
    /// one's end and the answer's use (the code's step, the challenge) commit together.
    /// - Parameters:
    ///   - principal: the session being stepped up.
    package func stepUp(_ grant: Grant, of principal: Principal, from client: ClientInfo) async throws -> SignIn {
        try await context.nearStorage {
            var admitted = try await admitStepUp(grant, of: principal, from: client)
            admitted.writes.append(.sessionEnded(id: principal.session.id, reason: .steppedUp, at: now))
            return try await openAPISession(
                for: admitted, assurance: principal.session.assurance.steppedUp(with: grant.method, at: now), method: grant.method, client: client
            )
        }
    }

    /// Steps a browser's web session up to `aal2`: a new web session id replaces the old one.
    package func stepUpWeb(_ grant: Grant, of principal: Principal, from client: ClientInfo, replacing webID: String) async throws -> WebSignIn {
        try await context.nearStorage {
            let admitted = try await admitStepUp(grant, of: principal, from: client)
            let id = try await openWebSession(
                for: admitted.user, method: grant.method, assurance: principal.session.assurance.steppedUp(with: grant.method, at: now),
                client: client, replacing: webID, writes: admitted.writes, reports: admitted.reports
            )
            var signIn = WebSignIn(sessionID: id, deviceToken: admitted.deviceToken)
            signIn.recoveryCodes = admitted.recoveryCodes
            return signIn
        }
    }

    /// The second factors a signed-in session may be challenged with, when it is at `aal1` and
    /// the account has any: what a sign-in answer's `mfa` member says.
    /// - Parameter known: whether the account has a verified factor, when the sign-in's own
    ///   read said (a password's); `false` needs no read.
    package func secondFactorHint(for user: UserRecord, session: SessionRecord, known: Bool? = nil) async throws -> SecondFactorHint? {
        guard session.assurance.level == .aal1, known != false else { return nil }
        let verified = try await context.factors.factors(userID: user.id).filter { $0.status == .verified }
        guard !verified.isEmpty else { return nil }
        return SecondFactorHint(required: true, factors: verified.map(\.summary))
    }

    private func admitStepUp(_ grant: Grant, of principal: Principal, from client: ClientInfo) async throws -> Admission {
        guard grant.kind.canStepUp else { throw GatehouseError.invalidRequest("Only a second factor or a passkey can confirm a sign-in") }
        let admitted = try await admission(grant, from: client)
        // A passkey of another account proves nothing about this session (its use is still kept).
        guard admitted.user.id == principal.user.id else {
            try await storingSignIn { try await context.sessions.storeSignInWrites(admitted.writes) }
            throw GatehouseError.invalidCredentials
        }
        return admitted
    }
}
