import Crypto
import Foundation

/// Second factors (issue 37): authenticator-app enrolment and codes.
///
/// Enrolment is two steps: ``enrol(userID:account:friendlyName:)`` makes an unverified factor
/// with a fresh 160-bit secret (sealed under the key-encryption key, bound to the factor's id)
/// and answers what the person's app needs once (the secret in base32, the `otpauth://` URI, its
/// QR code); the first correct code (``checkCode(_:factorID:userID:from:)``) verifies it. An
/// unverified factor expires after ``MFAPolicy/unverifiedLifetime``.
///
/// A code is checked in constant time one step either side of now, and its step is accepted
/// atomically only when newer than every step accepted before, so a code works once. Wrong
/// codes go through the sign-in limiter: they are refused while the account is backing off and
/// each counts into its back-off, like a wrong password.
package struct SecondFactors: Sendable {
    let context: ServiceContext
    let factors: any FactorRepository
    let kek: SymmetricKey
    package let policy: MFAPolicy
    let qrCodes: (any QRCodeRenderer)?

    package init(context: ServiceContext, factors: any FactorRepository, kek: SymmetricKey, policy: MFAPolicy, qrCodes: (any QRCodeRenderer)?) {
        self.context = context
        self.factors = factors
        self.kek = kek
        self.policy = policy
        self.qrCodes = qrCodes
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

    /// Starts an authenticator-app enrolment for the account.
    /// - Parameters:
    ///   - account: how the app labels the account (its email or phone number).
    ///   - friendlyName: the person's name for it, under the name rule; may be empty.
    /// - Throws: ``GatehouseError/factorLimitReached(maximum:)`` at the limit.
    package func enrol(userID: String, account: String, friendlyName: String) async throws -> Enrolment {
        guard policy.totp else { throw GatehouseError.notFound }
        let trimmed = friendlyName.trimmingCharacters(in: .whitespacesAndNewlines)
        let name = trimmed.isEmpty ? "" : try ServiceContext.checkedName(trimmed)
        let secret = TOTP.newSecret()
        let id = UUID().uuidString.lowercased()
        let record = FactorRecord(
            id: id, userID: userID, friendlyName: name, sealedSecret: try FactorSecret.seal(secret, factorID: id, kek: kek), createdAt: context.now
        )
        guard try await factors.addFactor(record, maximum: policy.maximumFactors, unverifiedSince: unverifiedCutoff) else {
            throw GatehouseError.factorLimitReached(maximum: policy.maximumFactors)
        }
        let totp = TOTP(secret: secret)
        let issuer = context.settings.login.appName
        let uri = totp.uri(issuer: issuer, account: account)
        return Enrolment(factor: record, secret: totp.base32Secret, uri: uri, qrCode: qrCodes?.svg(uri, label: "QR code to add \(issuer) to an authenticator app"))
    }

    /// The account's factors: verified ones, and unverified ones still waiting for a first code.
    package func list(userID: String) async throws -> [FactorRecord] {
        try await factors.factors(userID: userID).filter(isLive)
    }

    /// Checks a code from the account's authenticator app for one of its factors; the first
    /// correct code verifies an unverified factor.
    /// - Returns: the factor as it now is.
    /// - Throws: ``GatehouseError/notFound`` for no such live factor;
    ///   ``GatehouseError/codeRejected(_:)`` for a wrong or already used code;
    ///   ``GatehouseError/rateLimited(retryAfter:)`` while the account backs off.
    package func checkCode(_ code: String, factorID: String, userID: String, from client: ClientInfo) async throws -> FactorRecord {
        guard let factor = try await factors.factor(id: factorID, userID: userID), isLive(factor),
              let secret = FactorSecret.open(factor.sealedSecret, factorID: factor.id, kek: kek) else {
            throw GatehouseError.notFound
        }
        let attempt = try await context.limiter.admit(try await identifier(userID), from: client, now: context.now)
        let digits = code.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "")
        if let step = TOTP(secret: secret).match(digits, at: context.now),
           try await factors.acceptStep(factorID: factor.id, userID: userID, step: step, at: context.now) {
            _ = try await context.limiter.recordSuccess(attempt, now: context.now)
            return try await factors.factor(id: factor.id, userID: userID) ?? factor
        }
        try await context.limiter.recordFailure(attempt, now: context.now)
        throw GatehouseError.codeRejected(.incorrect(attemptsLeft: 0))
    }

    /// Removes one of the account's factors; returns whether it existed.
    package func remove(factorID: String, userID: String) async throws -> Bool {
        try await factors.deleteFactor(id: factorID, userID: userID)
    }

    private var unverifiedCutoff: Date { context.now.addingTimeInterval(-policy.unverifiedLifetime) }

    private func isLive(_ factor: FactorRecord) -> Bool {
        factor.status == .verified || factor.createdAt >= unverifiedCutoff
    }

    /// The identifier the account's password back-off counts under (as a password change's
    /// check does): its email, or its id for an account without one.
    private func identifier(_ userID: String) async throws -> String {
        guard let user = try await context.users.user(id: userID) else { throw GatehouseError.notFound }
        return user.email ?? "user:\(user.id)"
    }
}
