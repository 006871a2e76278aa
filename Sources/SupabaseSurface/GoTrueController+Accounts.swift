import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import Hummingbird

extension GoTrueController {
    /// Seconds after a recovery link's sign-in in which `PUT /user` may set a password once
    /// without another proof.
    static let recoveryWindow: TimeInterval = 30 * 60

    /// `POST /signup`: creates the account and mails its confirmation, as GoTrue does with
    /// confirmations on. The answer is an unconfirmed user with a fresh id and no identities,
    /// the same whether or not the address was taken (GoTrue's obfuscated user).
    @Sendable package func signUp(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(GoTrueSignUpRequest.self, from: request, context: context)
        // No email and no phone: `signInAnonymously`, a guest account where the app lists `anonymous`.
        if body.email == nil, body.phone == nil, body.password == nil {
            return try await signedIn(.anonymous, context: context)
        }
        guard body.phone == nil else { throw GoTrueError(.badRequest, .phoneProviderDisabled, "Phone signups are disabled") }
        guard let email = body.email, let password = body.password else {
            throw GoTrueError.validationFailed("Signup requires a valid password")
        }
        let name = body.data?.fullName ?? body.data?.name ?? String(email.prefix { $0 != "@" })
        let receipt = try await services.accounts.signUp(email: email, password: password, name: name, from: context.client)
        let shown = UserRecord(email: receipt.address, name: PersonName(full: name), createdAt: services.pipeline.now)
        var response = try JSONBody.response(GoTrueUser(shown, identities: []))
        response.headers[.gatehouseSignUp] = receipt.binding
        return response
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

    /// `PUT /user {"password", "nonce" | "current_password"}`: sets the password, as GoTrue's
    /// secure password change does: with the code `GET /reauthenticate` mailed (`nonce`), the
    /// current password, or once from the session a recovery link opened in the last 30
    /// minutes; otherwise 400 `reauthentication_needed`. Every other session ends.
    /// `PUT /user {"email"}`: starts a secure email change (both addresses confirm with
    /// `verify type=email_change`); the user answered carries `new_email`. `PUT /user {"phone"}`:
    /// an SMS code that `verify type=phone_change` takes to add or change the phone (how a guest
    /// keeps its account with a phone). Nothing else is updated.
    @Sendable package func updateUser(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let body = try await JSONBody.decode(GoTrueUpdateUserRequest.self, from: request, context: context)
        if let email = body.email, body.password == nil, body.phone == nil, body.data == nil, body.nonce == nil {
            _ = try await services.emailChanges().request(principal, newEmail: email, password: body.currentPassword, from: context.client)
            return try await userResponse(id: principal.user.id, fallback: principal.user)
        }
        if let phone = body.phone, body.password == nil, body.email == nil, body.data == nil, body.nonce == nil {
            // GoTrue's phone change: an SMS code that `verify type=phone_change` takes.
            _ = try await services.phoneCodes().sendAddPhoneCode(principal, phone: phone, country: nil, from: context.client)
            return try await userResponse(id: principal.user.id, fallback: principal.user)
        }
        guard let password = body.password, body.email == nil, body.phone == nil, body.data == nil else {
            throw GoTrueError.validationFailed("Only the password or the email can be updated, one at a time")
        }
        let proof: PasswordProof? = switch (body.nonce, body.currentPassword) {
        case (let nonce?, nil): .nonce(nonce)
        case (nil, let current?): .currentPassword(current)
        case (nil, nil): nil
        case (.some, .some): throw GoTrueError.validationFailed("Send either nonce or current_password, not both")
        }
        try await services.accounts.setPassword(principal, new: password, proof: proof, from: context.client)
        return try await userResponse(id: principal.user.id, fallback: principal.user)
    }

    /// GoTrue's user as it is now, with a pending email change's new address.
    func userResponse(id: String, fallback: UserRecord) async throws -> Response {
        let user = try await services.profiles.account(id: id) ?? fallback
        var shown = GoTrueUser(user, identities: try await services.profiles.identities(of: user.id), factors: try await factors(of: user.id))
        shown.newEmail = try await services.emailChange?.pendingAddress(userID: user.id)
        return try JSONBody.response(shown)
    }

    /// `GET /reauthenticate`: mails the signed-in person a code for `PUT /user`'s `nonce`.
    @Sendable package func reauthenticate(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        try await services.accounts.sendReauthentication(try context.requirePrincipal(), from: context.client)
        return try JSONBody.response([String: String]())
    }
}
