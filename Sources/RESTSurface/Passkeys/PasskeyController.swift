import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import Hummingbird

/// Passkeys over REST: enrol (signed in, recently), sign in (no auth, discoverable), and list,
/// rename and remove.
///
/// Each ceremony is two calls: options, then verify with the browser's
/// `PublicKeyCredential.toJSON()` as `credential`. Sign-in answers with the login's token response.
package struct PasskeyController {
    package let pipeline: SignInPipeline
    package let passkeys: PasskeyService

    package init(pipeline: SignInPipeline, passkeys: PasskeyService) {
        self.pipeline = pipeline
        self.passkeys = passkeys
    }

    package func addRoutes(to router: Router<GatehouseRequestContext>) {
        router.post("/api/auth/passkeys/authentication/options", use: authenticationOptions)
        router.post("/api/auth/passkeys/authentication/verify", use: authenticate)
        router.group()
            .add(middleware: BearerAuthenticator(pipeline: pipeline))
            .post("/api/auth/passkeys/registration/options", use: registrationOptions)
            .post("/api/auth/passkeys/registration/verify", use: register)
            .get("/api/auth/passkeys", use: list)
            .patch("/api/auth/passkeys/{id}", use: rename)
            .delete("/api/auth/passkeys/{id}", use: remove)
    }

    @Sendable package func registrationOptions(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let options = try await passkeys.passkeyRegistrationOptions(for: try context.requirePrincipal())
        return try JSONBody.response(PasskeyOptionsResponse(options: options, expiresIn: options.timeout / 1000))
    }

    @Sendable package func register(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(PasskeyRegistrationRequest.self, from: request, context: context)
        let record = try await passkeys.registerPasskey(body.credential, name: body.name, for: try context.requirePrincipal())
        return try JSONBody.response(PasskeySummary(record), status: .created)
    }

    @Sendable package func authenticationOptions(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let options = try await passkeys.passkeyAuthenticationOptions(from: context.client)
        return try JSONBody.response(PasskeyOptionsResponse(options: options, expiresIn: options.timeout / 1000))
    }

    @Sendable package func authenticate(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(PasskeyAuthenticationRequest.self, from: request, context: context)
        let signIn = try await pipeline.signIn(try .passkey(body.credential), from: context.client)
        return try TokenGrantResponse.make(signIn.grant, device: signIn.deviceToken)
    }

    @Sendable package func list(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let records = try await passkeys.passkeys(of: try context.requirePrincipal().user.id)
        return try JSONBody.response(PasskeyList(passkeys: records.map(PasskeySummary.init)))
    }

    @Sendable package func rename(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let id = try context.parameters.require("id")
        let body = try await JSONBody.decode(PasskeyRenameRequest.self, from: request, context: context)
        try await passkeys.renamePasskey(id, to: body.name, for: principal)
        guard let record = try await passkeys.passkeys(of: principal.user.id).first(where: { $0.id == id }) else {
            throw GatehouseError.notFound
        }
        return try JSONBody.response(PasskeySummary(record))
    }

    @Sendable package func remove(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        try await passkeys.removePasskey(try context.parameters.require("id"), for: try context.requirePrincipal())
        return Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }
}
