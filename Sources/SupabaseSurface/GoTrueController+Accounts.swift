import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import Hummingbird

extension GoTrueController {
    /// Seconds after a sign-in (a recovery link's, say) in which `PUT /user` may set a password
    /// without the old one.
    static let recentSignIn: TimeInterval = 30 * 60

    /// `POST /signup`: creates the account and mails its confirmation, as GoTrue does with
    /// confirmations on. The answer is an unconfirmed user with a fresh id and no identities,
    /// the same whether or not the address was taken (GoTrue's obfuscated user).
    @Sendable package func signUp(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(GoTrueSignUpRequest.self, from: request, context: context)
        guard body.phone == nil else { throw GoTrueError(.badRequest, .phoneProviderDisabled, "Phone signups are disabled") }
        guard let email = body.email, let password = body.password else {
            throw GoTrueError.validationFailed("Signup requires a valid password")
        }
        let name = body.data?.fullName ?? body.data?.name ?? String(email.prefix { $0 != "@" })
        let address = try await services.accounts.signUp(email: email, password: password, name: name, from: context.client)
        let shown = UserRecord(email: address, name: PersonName(full: name), createdAt: services.pipeline.now)
        return try JSONBody.response(GoTrueUser(shown, identities: []))
    }

    /// `POST /resend {"type": "signup", "email"}`: a new confirmation mail, if one is due.
    @Sendable package func resend(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(GoTrueResendRequest.self, from: request, context: context)
        guard body.type == "signup", let email = body.email, body.phone == nil else {
            throw GoTrueError.validationFailed("Resend supports type signup with an email")
        }
        _ = try await services.accounts.resendVerification(email: email, from: context.client)
        return try JSONBody.response([String: String]())
    }

    /// `POST /recover {"email"}`: a reset mail, if the address has an account; `{}` either way.
    @Sendable package func recover(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(GoTrueRecoverRequest.self, from: request, context: context)
        _ = try await services.accounts.requestPasswordReset(email: body.email, from: context.client)
        return try JSONBody.response([String: String]())
    }

    /// `PUT /user {"password"}`: sets the password of a session that signed in in the last 30
    /// minutes (after a recovery link, say); every other session ends. Nothing else is updated.
    @Sendable package func updateUser(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let body = try await JSONBody.decode(GoTrueUpdateUserRequest.self, from: request, context: context)
        guard let password = body.password, body.email == nil, body.phone == nil, body.data == nil else {
            throw GoTrueError.validationFailed("Only the password can be updated")
        }
        try await services.accounts.setRecentPassword(principal, new: password, from: context.client, within: Self.recentSignIn)
        let user = try await services.profiles.account(id: principal.user.id) ?? principal.user
        return try JSONBody.response(GoTrueUser(user, identities: try await services.profiles.identities(of: user.id)))
    }
}
