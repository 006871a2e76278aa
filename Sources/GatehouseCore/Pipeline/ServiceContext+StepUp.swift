import Foundation

extension ServiceContext {
    /// How long after proving a second factor a session may do sensitive things.
    static let stepUpWindow: TimeInterval = 600

    /// Refuses a sensitive action (a password or email change, adding or removing a passkey
    /// or factor, new recovery codes, ending other sessions, deleting the account) unless the
    /// account has no verified second factor, or the session proved one in the last 10 minutes.
    ///
    /// The refusal is ``GatehouseError/stepUpRequired`` on every surface, and is audited.
    func requireStepUp(_ principal: Principal) async throws {
        guard try await hasVerifiedFactor(userID: principal.user.id) else { return }
        let assurance = principal.session.assurance
        if assurance.level == .aal2, let proved = assurance.lastProvedAt, now.timeIntervalSince(proved) <= Self.stepUpWindow { return }
        logger.notice("Step up required", metadata: ["user.id": "\(principal.user.id)", "session.id": "\(principal.session.id)"])
        report(.stepUpRefused(userID: principal.user.id), address: principal.session.address, device: principal.session.deviceLabel)
        throw GatehouseError.stepUpRequired
    }

    /// Whether the account has a verified second factor.
    func hasVerifiedFactor(userID: String) async throws -> Bool {
        try await factors.factors(userID: userID).contains { $0.status == .verified }
    }
}
