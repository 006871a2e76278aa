import Foundation
import GatehouseCore
import GatehouseHTTP
import Hummingbird
import LoginCore

/// Home's "Delete account" (issue 39): a confirmation page that names what goes and asks for
/// the password (an account without one needs a sign-in of the last five minutes), then the
/// deletion, the cookies cleared, and a page that says it is done. Works without JavaScript.
extension WebController {
    func addDeletionRoutes(to pages: RouterGroup<GatehouseRequestContext>) {
        pages.get("/home/delete") { _, context in
            guard let principal = context.identity else { return Response.redirect(to: "/login", type: .normal) }
            return try await deletionPage(principal, error: nil, banner: nil, status: .ok)
        }
        pages.post("/home/delete", use: submitDeletion)
    }

    @Sendable func submitDeletion(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        guard let principal = context.identity else { return Response.redirect(to: "/login", type: .normal) }
        let fields = try await WebForm.decode(WebForm.Account.self, from: request, context: context)
        let needsPassword = try await services.deletion.needsPassword(principal)
        let password = needsPassword ? fields.password ?? "" : nil
        if let password, password.isEmpty {
            return try await deletionPage(principal, error: messages.text(.passwordRequired), banner: nil, status: .unprocessableContent)
        }
        let due: Date?
        do {
            due = try await services.deletion.deleteAccount(principal, password: password, from: context.client)
        } catch GatehouseError.invalidCredentials {
            return try await deletionPage(principal, error: messages.text(.deleteAccountWrongPassword), banner: nil, status: .unauthorized)
        } catch GatehouseError.reauthenticationRequired {
            return try await deletionPage(principal, error: nil, banner: messages.text(.deleteAccountSignInAgain), status: .unauthorized)
        } catch GatehouseError.stepUpRequired {
            return try await deletionPage(principal, error: nil, banner: messages.text(.mfaStepUpNeeded), status: .forbidden)
        } catch let error as GatehouseError {
            return try await deletionPage(
                principal, error: nil, banner: Self.failure(for: error).message(in: messages), status: error.presentation.httpStatus
            )
        }
        let csrf = WebCookies.newToken()
        let page = AccountPage(
            title: messages.text(.accountDeletedTitle),
            notice: due.map { messages.text(.accountDeletionScheduledBody, ["app": configuration.appName, "date": $0.formatted(date: .long, time: .omitted)]) }
                ?? messages.text(.accountDeletedBody, ["app": configuration.appName]),
            noticeIsSuccess: true, action: "", submit: "", showForm: false,
            links: [.init(id: "signin-link", text: messages.text(.signInLink), href: "/login")]
        )
        var response = html(render(page.context(csrf: csrf, configuration: configuration), "account"), status: .ok, csrf: csrf)
        response.setCookie(WebCookies.expired(WebCookies.session))
        response.setCookie(WebCookies.expired(WebCookies.device))
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// "Delete your account?": what goes, the password (if the account has one), and "Cancel".
    private func deletionPage(_ principal: Principal, error: String?, banner: String?, status: HTTPResponse.Status) async throws -> Response {
        let csrf = WebCookies.newToken()
        var page = AccountPage(
            title: messages.text(.deleteAccountTitle),
            notice: services.deletion.graceDays > 0
                ? messages.text(.deleteAccountBodyGrace, ["app": configuration.appName, "days": String(services.deletion.graceDays)])
                : messages.text(.deleteAccountBody, ["app": configuration.appName]),
            formID: "delete-form", action: "/home/delete", submit: messages.text(.deleteAccountSubmit), banner: banner,
            links: [.init(id: "cancel-link", text: messages.text(.cancel), href: "/home")]
        )
        page.destructive = true
        if try await services.deletion.needsPassword(principal) {
            page.fields = [.init(
                name: "password", label: messages.text(.deleteAccountPasswordLabel), type: "password", autocomplete: "current-password",
                error: error, checks: [.required(messages.text(.passwordRequired), trimmed: false)]
            )]
        }
        return html(render(page.context(csrf: csrf, configuration: configuration), "account"), status: status, csrf: csrf)
    }
}
