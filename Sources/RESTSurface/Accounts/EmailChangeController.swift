import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import Hummingbird

/// Changing the email over REST (issue 39): the signed-in request, and each address's
/// confirmation by its mail's code or link. Mounted where the app sends account mail.
package struct EmailChangeController {
    package let pipeline: SignInPipeline
    package let emailChange: EmailChange

    package init(pipeline: SignInPipeline, emailChange: EmailChange) {
        self.pipeline = pipeline
        self.emailChange = emailChange
    }

    package func addRoutes(to router: Router<GatehouseRequestContext>) {
        router.post("/api/auth/email/change/verify", use: confirm)
        router.post("/api/auth/email/change/cancel", use: cancel)
        router.group()
            .add(middleware: BearerAuthenticator(pipeline: pipeline))
            .post("/api/auth/email/change", use: request)
    }

    /// `POST /api/auth/email/change {"email", "password"?}`: mails both addresses; 202
    /// `{"status": "pending", "email"}`, alike for a free address and a taken one.
    @Sendable package func request(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let body = try await JSONBody.decode(EmailChangeRequest.self, from: request, context: context)
        let address = try await emailChange.request(principal, newEmail: body.email, password: body.password, from: context.client)
        return try JSONBody.response(EmailChangeAnswer(status: .pending, email: address), status: .accepted)
    }

    /// `POST /api/auth/email/change/verify {"email", "code"}` or `{"token"}`: confirms one
    /// address; `awaiting_other` until the other has too, then `done`.
    @Sendable package func confirm(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(MailProofRequest.self, from: request, context: context)
        guard body.password == nil else { throw GatehouseError.invalidRequest("password is not a field of email/change/verify") }
        let answer = switch try await emailChange.confirm(try body.proof(), from: context.client) {
        case .awaitingOther(let email): EmailChangeAnswer(status: .awaitingOther, email: email)
        case .done(_, let email): EmailChangeAnswer(status: .done, email: email)
        }
        return try JSONBody.response(answer)
    }

    /// `POST /api/auth/email/change/cancel {"token"}`: the current address's link cancels the
    /// pending change; 204.
    @Sendable package func cancel(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(MailProofRequest.self, from: request, context: context)
        guard let token = body.token, body.email == nil, body.code == nil, body.password == nil else {
            throw GatehouseError.invalidRequest("send the current address's link token")
        }
        try await emailChange.cancel(token: token, from: context.client)
        return Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }
}
