import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import Hummingbird

/// The account lifecycle over REST: sign-up, email verification, password reset and change.
///
/// Every route that mails answers 202 with the same body whether or not the address has an
/// account; the routes that prove a mail's secret sign in and answer with the login's token
/// response.
package struct AccountController {
    package let pipeline: SignInPipeline
    package let accounts: EmailAccounts
    package let deletion: AccountDeletion

    package init(pipeline: SignInPipeline, accounts: EmailAccounts, deletion: AccountDeletion) {
        self.pipeline = pipeline
        self.accounts = accounts
        self.deletion = deletion
    }

    package func addRoutes(to router: Router<GatehouseRequestContext>) {
        router.post("/api/auth/signup", use: signUp)
        router.post("/api/auth/email/verify", use: verify)
        router.post("/api/auth/email/resend", use: resend)
        router.post("/api/auth/password/forgot", use: forgot)
        router.post("/api/auth/password/reset", use: reset)
        router.post("/api/auth/anonymous", use: signInAnonymously)
        router.post("/api/auth/email/otp", use: sendSignInCode)
        router.post("/api/auth/email/otp/verify", use: verifySignInCode)
        router.group()
            .add(middleware: BearerAuthenticator(pipeline: pipeline))
            .post("/api/auth/password", use: change)
            .delete("/api/me", use: deleteAccount)
    }

    @Sendable package func signUp(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(SignUpRequest.self, from: request, context: context)
        let receipt = try await accounts.signUp(email: body.email, password: body.password, name: body.name, from: context.client)
        var response = try JSONBody.response(MailAccepted(email: receipt.address), status: .accepted)
        // Presented again with the mail's link, it lets the link sign in here (and only here).
        response.headers[.gatehouseSignUp] = receipt.binding
        return response
    }

    @Sendable package func verify(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(MailProofRequest.self, from: request, context: context)
        guard body.password == nil else { throw GatehouseError.invalidRequest("password is not a field of email/verify") }
        let signIn = try await pipeline.signIn(.emailLink(try body.proof()), from: context.client)
        return try TokenGrantResponse.make(signIn.grant, device: signIn.deviceToken)
    }

    /// `POST /api/auth/anonymous`: a guest account (the app lists `anonymous`), signed in; the
    /// login's token response, its access token saying `is_anonymous`.
    @Sendable package func signInAnonymously(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let signIn = try await pipeline.signIn(.anonymous, from: context.client)
        return try TokenGrantResponse.make(signIn.grant, device: signIn.deviceToken)
    }

    /// `POST /api/auth/email/otp {"email", "create_user"?, "name"?}`: mails a sign-in code and
    /// link; 202 with the same body for every address.
    @Sendable package func sendSignInCode(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(SignInCodeRequest.self, from: request, context: context)
        let address = try await accounts.sendSignInCode(
            email: body.email, createUser: body.createUser ?? false, name: body.name, from: context.client
        )
        return try JSONBody.response(MailAccepted(email: address), status: .accepted)
    }

    /// `POST /api/auth/email/otp/verify {"email", "code"}` or `{"token"}`: signs in with the
    /// mailed code or link; the login's token response.
    @Sendable package func verifySignInCode(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(MailProofRequest.self, from: request, context: context)
        guard body.password == nil else { throw GatehouseError.invalidRequest("password is not a field of email/otp/verify") }
        let signIn = try await pipeline.signIn(.emailCode(try body.proof()), from: context.client)
        return try TokenGrantResponse.make(signIn.grant, device: signIn.deviceToken)
    }

    @Sendable package func resend(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(EmailRequest.self, from: request, context: context)
        let address = try await accounts.resendVerification(email: body.email, from: context.client)
        return try JSONBody.response(MailAccepted(email: address), status: .accepted)
    }

    @Sendable package func forgot(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(EmailRequest.self, from: request, context: context)
        let address = try await accounts.requestPasswordReset(email: body.email, from: context.client)
        return try JSONBody.response(MailAccepted(email: address), status: .accepted)
    }

    @Sendable package func reset(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(MailProofRequest.self, from: request, context: context)
        guard let password = body.password else { throw GatehouseError.invalidRequest("password is required") }
        let signIn = try await pipeline.signIn(.passwordReset(try body.proof(), newPassword: password), from: context.client)
        return try TokenGrantResponse.make(signIn.grant, device: signIn.deviceToken)
    }

    /// `DELETE /api/me {"password"?}`: deletes the signed-in account, proved again by its
    /// password or (without one) a sign-in in the last five minutes; 204, or 202 with the date
    /// where the app keeps deleted accounts for a grace period.
    @Sendable package func deleteAccount(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let body = try await JSONBody.decodeIfPresent(DeleteAccountRequest.self, from: request, context: context)
        if let due = try await deletion.deleteAccount(principal, password: body?.password, from: context.client) {
            return try JSONBody.response(ScheduledDeletion(dueAt: due), status: .accepted)
        }
        return Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }

    @Sendable package func change(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let body = try await JSONBody.decode(ChangePasswordRequest.self, from: request, context: context)
        try await accounts.changePassword(principal, current: body.currentPassword, new: body.password, from: context.client)
        return Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }
}
