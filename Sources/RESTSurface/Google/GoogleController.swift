import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import Hummingbird

/// Sign in with Google over JSON: seed 002's code exchange, and the code an app's flow returns.
///
/// The browser half of the flow (`/auth/google/start` and the provider's callback) is the web
/// surface's `ProviderFlowController`.
/// - `POST /auth/google {"code", "redirect_uri"?, "code_verifier"?}` (seed 002, also under `/api`).
/// - `POST /auth/google/token {"auth_code", "code_verifier"}`: an app's flow code for tokens.
package struct GoogleController {
    package let pipeline: SignInPipeline

    /// Whether Google is configured (seed 002's code exchange); the flow-code exchange serves
    /// every provider's app flows.
    package let offersGoogle: Bool

    package init(pipeline: SignInPipeline, offersGoogle: Bool) {
        self.pipeline = pipeline
        self.offersGoogle = offersGoogle
    }

    package func addRoutes(to router: Router<GatehouseRequestContext>) {
        if offersGoogle {
            router.post("/auth/google", use: exchangeCode)
            router.post("/api/auth/google", use: exchangeCode)
        }
        router.post("/auth/google/token", use: exchangeFlowCode)
    }

    /// Seed 002's `POST /auth/google`: a code the app got from Google, exchanged by the server.
    @Sendable package func exchangeCode(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(GoogleCodeRequest.self, from: request, context: context)
        let signIn = try await pipeline.signIn(.provider(.google, try body.proof), from: context.client)
        var response = try JSONBody.response(GoogleSignInResponse(signIn))
        response.headers[.gatehouseDevice] = signIn.deviceToken
        return response
    }

    /// An app's flow code and PKCE verifier for tokens (the CLI's loopback sign-in).
    @Sendable package func exchangeFlowCode(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(FlowCodeRequest.self, from: request, context: context)
        let signIn = try await pipeline.signIn(.flowCode(code: body.authCode, verifier: body.codeVerifier), from: context.client)
        var response = try JSONBody.response(GoogleSignInResponse(signIn))
        response.headers[.gatehouseDevice] = signIn.deviceToken
        return response
    }
}
