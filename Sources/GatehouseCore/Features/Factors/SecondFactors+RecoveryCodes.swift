import Foundation

extension SecondFactors {
    /// A new set of recovery codes for the signed-in account, shown once; the old set stops working.
    /// - Throws: ``GatehouseError/stepUpRequired`` unless the session proved a factor lately;
    ///   ``GatehouseError/notFound`` for an account without a verified factor.
    package func regenerateRecoveryCodes(for principal: Principal) async throws -> [String] {
        guard policy.recoveryCodes else { throw GatehouseError.featureNotOffered(.secondFactors) }
        guard try await context.hasVerifiedFactor(userID: principal.user.id) else { throw GatehouseError.notFound }
        try await context.requireStepUp(principal)
        let codes = try await replaceRecoveryCodes(userID: principal.user.id)
        context.report(.recoveryCodesRegenerated(userID: principal.user.id), address: principal.session.address, device: principal.session.deviceLabel)
        return codes
    }

    /// How many of the account's recovery codes are unused ("N codes left").
    package func recoveryCodesLeft(userID: String) async throws -> Int {
        try await factors.unusedRecoveryCodes(userID: userID)
    }

    func replaceRecoveryCodes(userID: String) async throws -> [String] {
        let (codes, hashes) = newRecoveryCodes(userID: userID)
        try await factors.replaceRecoveryCodes(userID: userID, hashes: hashes, at: context.now)
        return codes
    }

    /// A new set of recovery codes for the account and the hashes stored in their place.
    func newRecoveryCodes(userID: String) -> (codes: [String], hashes: [String]) {
        let codes = RecoveryCodes.generate()
        return (codes, codes.map { RecoveryCodes.hash($0, userID: userID) })
    }

    /// Audits a recovery code's use and mails the account's address.
    func recoveryCodeUsed(by user: UserRecord, from client: ClientInfo) async throws {
        let left = try await factors.unusedRecoveryCodes(userID: user.id)
        context.logger.notice("Recovery code used", metadata: ["user.id": "\(user.id)", "codes.left": "\(left)"])
        context.report(.recoveryCodeUsed(userID: user.id, left: left), client: client)
        guard let mail, let email = user.email else { return }
        await mail.notify(mail.compose(.recoveryCodeUsed, to: email, secret: nil, extra: ["count": "\(left)"]), for: client, now: context.now)
    }
}
