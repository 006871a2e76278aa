import Crypto
import Foundation

/// Second factors (issue 37): authenticator-app enrolment, challenges, recovery codes.
///
/// Enrolment is two steps: ``enrol(_:friendlyName:)`` makes an unverified factor with a fresh
/// 160-bit secret (sealed under the key-encryption key, bound to the factor's id) and answers
/// what the person's app needs once (the secret in base32, the `otpauth://` URI, its QR code);
/// the first correct code, answering a challenge, verifies it. An unverified factor expires
/// after ``MFAPolicy/unverifiedLifetime``.
///
/// Every answer is a ``Grant/secondFactor(_:)`` through the one pipeline's step up
/// (``SignInPipeline/stepUp(_:of:from:)``), so wrong codes meet the same limits as wrong
/// passwords and count into the account's back-off; this service is its verifier. Adding or
/// removing a factor and new recovery codes need a recent step up once the account has a
/// verified factor (``ServiceContext/requireStepUp(_:)``).
package struct SecondFactors: Sendable {
    let context: ServiceContext
    let factors: any FactorRepository & FactorChallengeRepository
    let kek: SymmetricKey
    package let policy: MFAPolicy
    let qrCodes: (any QRCodeRenderer)?
    /// Where a recovery code's use is mailed, when the app sends mail.
    let mail: AccountMailer?

    package init(
        context: ServiceContext, factors: any FactorRepository & FactorChallengeRepository, kek: SymmetricKey, policy: MFAPolicy,
        qrCodes: (any QRCodeRenderer)?, mail: AccountMailer? = nil
    ) {
        self.context = context
        self.factors = factors
        self.kek = kek
        self.policy = policy
        self.qrCodes = qrCodes
        self.mail = mail
    }

    /// What an authenticator app needs, shown once at enrolment.
    package struct Enrolment: Sendable {
        package let factor: FactorRecord
        /// The secret in base32, for typing.
        package let secret: String
        /// `otpauth://totp/{app}:{account}?secret=…&issuer={app}`.
        package let uri: String
        /// The URI as an inline SVG QR code, when a renderer is configured.
        package let qrCode: String?
    }

    /// Starts an authenticator-app enrolment for the signed-in account.
    /// - Parameters:
    ///   - friendlyName: the person's name for it, under the name rule; may be empty.
    ///   - issuer: how the app names the service (Supabase's `issuer`); the app's name by default.
    /// - Throws: ``GatehouseError/factorLimitReached(maximum:)`` at the limit;
    ///   ``GatehouseError/stepUpRequired`` when the account has a factor and the session has not proved it lately.
    package func enrol(_ principal: Principal, friendlyName: String, issuer: String? = nil) async throws -> Enrolment {
        guard policy.totp else { throw GatehouseError.featureNotOffered(.secondFactors) }
        try await context.requireStepUp(principal)
        let trimmed = friendlyName.trimmingCharacters(in: .whitespacesAndNewlines)
        let name = trimmed.isEmpty ? "" : try ServiceContext.checkedName(trimmed)
        let issuerName = try issuer.map { try ServiceContext.checkedName($0) } ?? context.settings.login.appName
        let secret = TOTP.newSecret()
        let id = RecordID.make()
        let record = FactorRecord(
            id: id, userID: principal.user.id, friendlyName: name,
            sealedSecret: try FactorSecret.seal(secret, factorID: id, kek: kek), createdAt: context.now
        )
        guard try await factors.addFactor(record, maximum: policy.maximumFactors, unverifiedSince: unverifiedCutoff) else {
            throw GatehouseError.factorLimitReached(maximum: policy.maximumFactors)
        }
        context.report(.factorEnrolled(userID: principal.user.id, factorID: id), address: principal.session.address, device: principal.session.deviceLabel)
        let totp = TOTP(secret: secret)
        let uri = totp.uri(issuer: issuerName, account: principal.user.email ?? principal.user.name)
        return Enrolment(
            factor: record, secret: totp.base32Secret, uri: uri,
            qrCode: qrCodes?.svg(uri, label: "QR code to add \(issuerName) to an authenticator app")
        )
    }

    /// The account's factors: verified ones, and unverified ones still waiting for a first code.
    package func list(userID: String) async throws -> [FactorRecord] {
        try await factors.factors(userID: userID).filter(isLive)
    }

    /// Removes one of the signed-in account's factors; returns whether it existed.
    /// - Throws: ``GatehouseError/stepUpRequired`` unless the session proved a factor lately.
    package func remove(factorID: String, for principal: Principal) async throws -> Bool {
        try await context.requireStepUp(principal)
        guard try await factors.deleteFactor(id: factorID, userID: principal.user.id) else { return false }
        context.report(
            .factorRemoved(userID: principal.user.id, factorID: factorID, actor: nil), address: principal.session.address,
            device: principal.session.deviceLabel
        )
        if try await !context.hasVerifiedFactor(userID: principal.user.id) {
            try await factors.deleteRecoveryCodes(userID: principal.user.id)
        }
        return true
    }

    var unverifiedCutoff: Date { context.now.addingTimeInterval(-policy.unverifiedLifetime) }

    func isLive(_ factor: FactorRecord) -> Bool {
        factor.status == .verified || factor.createdAt >= unverifiedCutoff
    }

    /// The identifier the account's password back-off counts under (as a password change's
    /// check does): its email, or its id for an account without one.
    static func identifier(of user: UserRecord) -> String {
        user.email ?? "user:\(user.id)"
    }
}

extension SecondFactors {
    /// What the authenticator app needs again for one of the account's factors still waiting
    /// for its first code (a setup page shown again after a mistyped code); `nil` otherwise.
    package func pendingEnrolment(factorID: String, for principal: Principal) async throws -> Enrolment? {
        guard let factor = try await factors.factor(id: factorID, userID: principal.user.id), factor.status == .unverified, isLive(factor),
              let secret = FactorSecret.open(factor.sealedSecret, factorID: factor.id, kek: kek)
        else { return nil }
        let totp = TOTP(secret: secret), issuer = context.settings.login.appName
        let uri = totp.uri(issuer: issuer, account: principal.user.email ?? principal.user.name)
        return Enrolment(
            factor: factor, secret: totp.base32Secret, uri: uri, qrCode: qrCodes?.svg(uri, label: "QR code to add \(issuer) to an authenticator app")
        )
    }

    /// Whether a signed-in session must answer a second factor before anything else: it is at
    /// `aal1` and the account has a verified factor.
    package func challengeDue(for principal: Principal) async throws -> Bool {
        guard principal.session.assurance.level == .aal1 else { return false }
        return try await context.hasVerifiedFactor(userID: principal.user.id)
    }

    /// Whether the app requires a factor and this account has none yet (`mfa.required`).
    package func enrolmentDue(for principal: Principal) async throws -> Bool {
        guard policy.required else { return false }
        return try await !context.hasVerifiedFactor(userID: principal.user.id)
    }
}
