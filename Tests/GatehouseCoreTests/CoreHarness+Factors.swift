import Foundation
import GatehouseCore
import Testing

extension CoreHarness {
    /// The signed-in session of a sign-in (by default a new password sign-in).
    func principal(of signIn: SignIn? = nil) async throws -> Principal {
        let made = if let signIn { signIn } else { try await self.signIn() }
        return try await pipeline.authenticate(accessToken: made.grant.accessToken)
    }

    /// Answers a new challenge of the enrolment's factor with `code`, stepping `principal` up.
    @discardableResult
    func answer(_ enrolment: SecondFactors.Enrolment, code: String, as principal: Principal) async throws -> SignIn {
        let challenge = try await factors.challenge(factorID: enrolment.factor.id, for: principal)
        return try await pipeline.stepUp(factors.grant(challengeID: challenge.id, answer: .code(code), for: principal), of: principal, from: Self.client)
    }
}
