import Foundation
import GatehouseCore
import GatehouseHTTP
import Hummingbird

/// Supabase Auth's MFA API (issue 37): enrol, challenge, verify and unenrol an authenticator
/// app, exactly as `supabase-auth`'s `mfa` calls it.
extension GoTrueController {
    /// `POST /factors {"factor_type": "totp", "friendly_name", "issuer"}`.
    @Sendable package func enrolFactor(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let body = try await JSONBody.decode(GoTrueEnrolRequest.self, from: request, context: context)
        guard body.factorType == "totp" else { throw GoTrueError.validationFailed("factor_type must be totp") }
        let enrolment = try await services.secondFactors().enrol(principal, friendlyName: body.friendlyName ?? "", issuer: body.issuer)
        return try JSONBody.response(GoTrueEnrolment(
            id: enrolment.factor.id, type: enrolment.factor.kind.rawValue, friendlyName: enrolment.factor.friendlyName,
            totp: .init(qrCode: enrolment.qrCode ?? "", secret: enrolment.secret, uri: enrolment.uri)
        ))
    }

    /// `POST /factors/{id}/challenge`.
    @Sendable package func challengeFactor(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        // supabase-auth sends `{"channel": null}`; a body that is not an object is refused.
        _ = try await JSONBody.decode(GoTrueChallengeRequest.self, from: request, context: context)
        let challenge = try await services.secondFactors().challenge(factorID: try factorID(context), for: principal)
        return try JSONBody.response(GoTrueChallenge(
            id: challenge.id, type: "totp", expiresAt: Int(challenge.expiresAt.timeIntervalSince1970)
        ))
    }

    /// `POST /factors/{id}/verify {"challenge_id", "code"}`: a new session at `aal2`.
    @Sendable package func verifyFactor(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let body = try await JSONBody.decode(GoTrueFactorVerifyRequest.self, from: request, context: context)
        let factors = try services.secondFactors()
        _ = try factorID(context)
        let grant = factors.grant(challengeID: body.challengeID, answer: .code(body.code), for: principal)
        return try await session(try await services.pipeline.stepUp(grant, of: principal, from: context.client))
    }

    /// `DELETE /factors/{id}`: needs `aal2` once the account has a verified factor.
    @Sendable package func unenrolFactor(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let id = try factorID(context)
        guard try await services.secondFactors().remove(factorID: id, for: principal) else { throw GatehouseError.notFound }
        return try JSONBody.response(["id": id])
    }

    /// The account's live factors, for its user object; none when the app has no second factors.
    func factors(of userID: String) async throws -> [FactorRecord] {
        try await services.factors?.list(userID: userID) ?? []
    }

    private func factorID(_ context: GatehouseRequestContext) throws -> String {
        guard let id = context.parameters.get("id"), !id.isEmpty, id.count <= 64 else { throw GoTrueError.validationFailed("A factor id is required") }
        return id
    }
}
