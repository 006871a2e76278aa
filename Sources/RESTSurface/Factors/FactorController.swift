import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import Hummingbird

/// Two-step verification over REST (issue 37), every route signed in.
///
/// Enrolment: `POST /api/auth/mfa/factors`, then the first code at
/// `POST /api/auth/mfa/factors/{id}/verify`, which answers a token response at `aal2` with the
/// recovery codes. A sign-in of an enrolled account answers at `aal1` with `mfa`; the client
/// then calls `POST /api/auth/mfa/challenge` and `POST /api/auth/mfa/verify`.
package struct FactorController {
    package let pipeline: SignInPipeline
    package let factors: SecondFactors

    package init(pipeline: SignInPipeline, factors: SecondFactors) {
        self.pipeline = pipeline
        self.factors = factors
    }

    package func addRoutes(to router: Router<GatehouseRequestContext>) {
        router.group("/api/auth/mfa")
            .add(middleware: BearerAuthenticator(pipeline: pipeline))
            .get("/factors", use: list)
            .post("/factors", use: enrol)
            .post("/factors/{id}/verify", use: verifyFirstCode)
            .delete("/factors/{id}", use: remove)
            .post("/challenge", use: challenge)
            .post("/verify", use: verify)
            .post("/recovery-codes", use: regenerate)
    }

    @Sendable package func list(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let user = try context.requirePrincipal().user
        return try JSONBody.response(FactorList(
            factors: try await factors.list(userID: user.id).map(\.summary), recoveryCodesLeft: try await factors.recoveryCodesLeft(userID: user.id)
        ))
    }

    @Sendable package func enrol(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(FactorEnrolRequest.self, from: request, context: context)
        let enrolment = try await factors.enrol(try context.requirePrincipal(), friendlyName: body.friendlyName ?? "")
        return try JSONBody.response(
            FactorEnrolment(factor: enrolment.factor.summary, secret: enrolment.secret, uri: enrolment.uri, qrCode: enrolment.qrCode),
            status: .created
        )
    }

    @Sendable package func verifyFirstCode(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let body = try await JSONBody.decode(FactorCodeRequest.self, from: request, context: context)
        let challenge = try await factors.challenge(factorID: try context.parameters.require("id"), for: principal)
        let grant = factors.grant(challengeID: challenge.id, answer: .code(body.code), for: principal)
        let signIn = try await pipeline.stepUp(grant, of: principal, from: context.client)
        return try TokenGrantResponse.make(signIn.grant, device: signIn.deviceToken)
    }

    @Sendable package func remove(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        guard try await factors.remove(factorID: try context.parameters.require("id"), for: try context.requirePrincipal()) else {
            throw GatehouseError.notFound
        }
        return Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }

    @Sendable package func challenge(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let body = try await JSONBody.decode(FactorChallengeRequest.self, from: request, context: context)
        let challenge = if let id = body.factorID {
            try await factors.challenge(factorID: id, for: principal)
        } else {
            try await factors.recoveryChallenge(for: principal)
        }
        let expiresIn = Int(challenge.expiresAt.timeIntervalSince(challenge.createdAt))
        return try JSONBody.response(FactorChallengeResponse(challengeID: challenge.id, expiresIn: expiresIn))
    }

    @Sendable package func verify(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let body = try await JSONBody.decode(FactorVerifyRequest.self, from: request, context: context)
        let grant: Grant = switch (body.challengeID, body.code, body.recoveryCode, body.credential) {
        case (let id?, let code?, nil, nil): factors.grant(challengeID: id, answer: .code(code), for: principal)
        case (let id?, nil, let code?, nil): factors.grant(challengeID: id, answer: .recoveryCode(code), for: principal)
        case (nil, nil, nil, let credential?): try .passkey(credential)
        default: throw GatehouseError.invalidRequest("Send challenge_id with code or recovery_code, or a passkey's credential")
        }
        let signIn = try await pipeline.stepUp(grant, of: principal, from: context.client)
        return try TokenGrantResponse.make(signIn.grant, device: signIn.deviceToken)
    }

    @Sendable package func regenerate(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let codes = try await factors.regenerateRecoveryCodes(for: try context.requirePrincipal())
        return try JSONBody.response(RecoveryCodeList(recoveryCodes: codes))
    }
}
