import Foundation
import GatehouseCore
import GatehouseHTTP
import Hummingbird
import HTTPTypes
import HummingbirdAuth

/// A Supabase Auth (GoTrue) compatible subset under `/auth/v1`, for apps built on a Supabase client.
///
/// `POST /token?grant_type=password|refresh_token`, `GET /user` and `POST /logout?scope=`
/// share users, sessions and rotation rules with the REST API. Every request must carry the
/// configured anon key in its `apikey` header, as Supabase's gateway requires.
package struct GoTrueController {
    package let services: GatehouseServices
    package let anonKey: String

    /// `POST /auth/v1/token?grant_type=password`: the server answers it from a hashing thread
    /// (``HashingThreadResponder``).
    package static let passwordSignIn = PasswordSignInRoute(path: "/auth/v1/token", query: (name: "grant_type", value: "password"))

    package init(services: GatehouseServices, anonKey: String) {
        self.services = services
        self.anonKey = anonKey
    }

    package func addRoutes(to router: Router<GatehouseRequestContext>) {
        if services.providers != nil {
            router.group("/auth/v1").add(middleware: GoTrueErrorMiddleware()).get("/authorize", use: authorize)
        }
        router.group("/auth/v1")
            .add(middleware: GoTrueErrorMiddleware())
            .add(middleware: APIKeyMiddleware(anonKey: anonKey))
            .add(middleware: BearerAuthenticator(pipeline: services.pipeline))
            .post("/token", use: token)
            .get("/user", use: user)
            .post("/logout", use: logout)
            .post("/otp", use: otp)
            .post("/magiclink", use: magicLink)
            .post("/verify", use: verify)
            .post("/signup", use: signUp)
            .post("/resend", use: resend)
            .post("/recover", use: recover)
            .put("/user", use: updateUser)
            .get("/reauthenticate", use: reauthenticate)
            .post("/factors", use: enrolFactor)
            .post("/factors/{id}/challenge", use: challengeFactor)
            .post("/factors/{id}/verify", use: verifyFactor)
            .delete("/factors/{id}", use: unenrolFactor)
        if services.providers != nil {
            router.group("/auth/v1")
                .add(middleware: GoTrueErrorMiddleware())
                .add(middleware: APIKeyMiddleware(anonKey: anonKey))
                .add(middleware: BearerAuthenticator(pipeline: services.pipeline))
                .get("/user/identities/authorize", use: linkIdentity)
                .delete("/user/identities/{id}", use: unlinkIdentity)
        }
    }

    /// `POST /otp {"phone", "create_user"}`: sends an SMS code, as GoTrue's `sign_in_with_otp`;
    /// `{"email", "create_user"}`, a sign-in code and link where the app lists `emailCode`.
    @Sendable package func otp(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(GoTrueOTPRequest.self, from: request, context: context)
        if let email = body.email, body.phone == nil {
            guard services.pipeline.settings.signInMethods.offers(.emailCode) else {
                throw GoTrueError(.badRequest, .emailProviderDisabled, "Email logins are disabled")
            }
            _ = try await services.accounts.sendSignInCode(
                email: email, createUser: body.createUser ?? true, name: body.data?.fullName ?? body.data?.name, from: context.client
            )
            return try JSONBody.response([String: String]())
        }
        guard let phone = body.phone, body.email == nil else {
            throw GoTrueError.validationFailed("Send either an email or a phone")
        }
        guard body.channel ?? "sms" == "sms" else { throw GoTrueError.validationFailed("Only the sms channel is supported") }
        let sent = try await services.phoneCodes().sendPhoneCode(
            phone, country: nil, purpose: .signIn, registerIfMissing: body.createUser ?? true, from: context.client
        )
        return try JSONBody.response(["message_id": sent.verificationID])
    }

    /// `POST /magiclink {"email"}`: a sign-in code and link, creating the account on use where
    /// the app allows sign-up (GoTrue's older magic-link route).
    @Sendable package func magicLink(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(GoTrueMagicLinkRequest.self, from: request, context: context)
        guard services.pipeline.settings.signInMethods.offers(.emailCode) else {
            throw GoTrueError(.badRequest, .emailProviderDisabled, "Email logins are disabled")
        }
        _ = try await services.accounts.sendSignInCode(
            email: body.email, createUser: true, name: body.data?.fullName ?? body.data?.name, from: context.client
        )
        return try JSONBody.response([String: String]())
    }

    /// `POST /verify`: `type` `sms` (a phone's current code), `signup` or `email` (a verification
    /// mail's code or token hash), `recovery` (a reset mail's, which signs in for `PUT /user`),
    /// `email_change` (either address of a pending change) or `phone_change` (an added phone's code).
    @Sendable package func verify(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(GoTrueVerifyRequest.self, from: request, context: context)
        switch body.type {
        case "sms":
            guard let phone = body.phone, let token = body.token else { throw GoTrueError.validationFailed("Verify requires a phone and a token") }
            let id = try await services.phoneCodes().currentPhoneCode(phone)
            return try await signedIn(.phoneCode(verificationID: id, code: token), context: context)
        case "signup":
            return try await signedIn(.emailLink(try body.mailProof()), context: context)
        case "email":
            // A sign-in code's or a confirmation's: the live secret says which.
            let proof = try body.mailProof()
            let isSignIn = try await services.accounts.isSignInCode(proof)
            return try await signedIn(isSignIn ? .emailCode(proof) : .emailLink(proof), context: context)
        case "magiclink":
            return try await signedIn(.emailCode(try body.mailProof()), context: context)
        case "recovery":
            let signIn = try await services.pipeline.signIn(.passwordReset(try body.mailProof(), newPassword: nil), from: context.client)
            try await services.accounts.allowPasswordSet(sessionID: signIn.sessionID, within: Self.recoveryWindow)
            return try await session(signIn)
        case "email_change":
            // One address of a secure email change: GoTrue's single-confirmation answer until
            // the other has confirmed too, then the user with its new address.
            switch try await services.emailChanges().confirm(try body.mailProof(), from: context.client) {
            case .awaitingOther:
                return try JSONBody.response(["msg": Self.singleConfirmation, "code": "200"])
            case .done(let userID, _):
                guard let user = try await services.profiles.account(id: userID) else { throw GatehouseError.linkExpired }
                return try await userResponse(id: userID, fallback: user)
            }
        case "phone_change":
            guard let phone = body.phone, let token = body.token else { throw GoTrueError.validationFailed("Verify requires a phone and a token") }
            let phoneCodes = try services.phoneCodes()
            let user = try await phoneCodes.verifyAddPhoneCode(try await phoneCodes.currentPhoneCode(phone), code: token, from: context.client)
            return try await userResponse(id: user.id, fallback: user)
        default:
            throw GoTrueError.validationFailed("Verify supports the types sms, signup, email, magiclink, recovery, email_change and phone_change")
        }
    }

    /// GoTrue's answer when one address of a secure email change has confirmed.
    static let singleConfirmation = "Confirmation link accepted. Please proceed to confirm link sent to the other email"

    /// Signs in with any grant and answers with GoTrue's session.
    package func signedIn(_ grant: Grant, context: GatehouseRequestContext) async throws -> Response {
        try await session(try await services.pipeline.signIn(grant, from: context.client))
    }

    /// GoTrue's session for a sign-in, with the device token the client should keep.
    func session(_ signIn: SignIn) async throws -> Response {
        var response = try await session(signIn.grant)
        response.headers[.gatehouseDevice] = signIn.deviceToken
        return response
    }

    @Sendable package func token(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        switch request.uri.queryParameters["grant_type"].map(String.init) {
        case "password":
            let body = try await JSONBody.decode(GoTruePasswordGrant.self, from: request, context: context)
            guard body.phone == nil || body.email != nil else {
                throw GoTrueError(.badRequest, .phoneProviderDisabled, "Phone logins are disabled")
            }
            guard let email = body.email, let password = body.password else {
                throw GoTrueError.validationFailed("An email address and a password are required")
            }
            return try await signedIn(.password(identifier: email, password: password), context: context)
        case "id_token":
            return try await idTokenGrant(request, context: context)
        case "pkce":
            return try await pkceGrant(request, context: context)
        case "refresh_token":
            let body = try await JSONBody.decode(GoTrueRefreshGrant.self, from: request, context: context)
            return try await session(await services.pipeline.refresh(body.refreshToken))
        case let other:
            throw GoTrueError(
                .badRequest, .validationFailed,
                "Unsupported grant type \(other.map { "'\($0)'" } ?? "(none)"); use password, refresh_token, id_token or pkce"
            )
        }
    }

    @Sendable package func user(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let user = try context.requirePrincipal().user
        return try await userResponse(id: user.id, fallback: user)
    }

    @Sendable package func logout(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let name = request.uri.queryParameters["scope"].map(String.init) ?? LogoutScope.global.rawValue
        guard let scope = LogoutScope(rawValue: name) else {
            throw GoTrueError.validationFailed("Unsupported scope '\(name)'; use global, local or others")
        }
        try await services.pipeline.logout(principal, scope: scope)
        return Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }

    private func session(_ grant: TokenGrant) async throws -> Response {
        guard let record = grant.account else { throw GatehouseError.invalidCredentials }
        let identities = try await services.profiles.identities(of: record.id)
        return try JSONBody.response(
            GoTrueSession(grant, record: record, identities: identities, factors: try await factors(of: record.id), now: services.pipeline.now)
        )
    }

}

/// Refuses requests whose `apikey` header is not the configured anon key.
package struct APIKeyMiddleware<Context: RequestContext>: RouterMiddleware {
    package let anonKey: String

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let presented = request.headers[.apiKey], ConstantTime.equal(presented, anonKey) else {
            throw GoTrueError.invalidAPIKey
        }
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    package static let apiKey = HTTPField.Name("apikey")!
}
