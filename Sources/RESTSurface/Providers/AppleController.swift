import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import Hummingbird

/// Sign in with Apple for native apps over JSON, like seed 002's Google endpoint.
///
/// `POST /auth/apple {"id_token", "nonce"?, "name"?}` (also under `/api`): the identity token
/// from `ASAuthorizationAppleIDCredential`, the raw nonce whose SHA-256 the app put in its
/// request, and the name Apple gives the app at the first authorisation only. The browser
/// flow is the web surface's `ProviderFlowController` (`/auth/apple/start`, its posted callback).
package struct AppleController {
    package let pipeline: SignInPipeline
    package let providers: ProviderSignIn

    package init(pipeline: SignInPipeline, providers: ProviderSignIn) {
        self.pipeline = pipeline
        self.providers = providers
    }

    package func addRoutes(to router: Router<GatehouseRequestContext>) {
        router.post("/auth/apple", use: signIn)
        router.post("/api/auth/apple", use: signIn)
        router.post("/auth/apple/notifications", use: notification)
    }

    /// Apple's server-to-server notice `{"payload": "<JWS>"}`: checked against Apple's keys and
    /// acted on (``ProviderSignIn/receiveNotice(_:from:)``); 200 once it is.
    @Sendable package func notification(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(AppleNotification.self, from: request, context: context)
        try await providers.receiveNotice(body.payload, from: .apple)
        return try JSONBody.response([String: String]())
    }

    @Sendable package func signIn(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(AppleSignInRequest.self, from: request, context: context)
        let signIn = try await pipeline.signIn(
            .provider(.apple, .idToken(body.idToken, nonce: body.nonce, name: body.name)), from: context.client
        )
        var response = try JSONBody.response(GoogleSignInResponse(signIn))
        response.headers[.gatehouseDevice] = signIn.deviceToken
        return response
    }
}

/// The body of `POST /auth/apple/notifications`.
package struct AppleNotification: Decodable {
    package let payload: String
}

/// The body of `POST /auth/apple`.
package struct AppleSignInRequest: Decodable {
    package let idToken: String
    package let nonce: String?
    package let name: String?

    package enum CodingKeys: String, CodingKey {
        case nonce, name
        case idToken = "id_token"
    }
}
