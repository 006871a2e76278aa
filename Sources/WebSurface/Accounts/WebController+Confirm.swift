import Foundation
import GatehouseCore
import GatehouseHTTP
import Hummingbird
import LoginCore

/// Home's destructive actions ask first: "Remove" a passkey, "Sign out" a device and "Unlink"
/// a provider open a confirmation page (`GET` on the action's own path) whose one button posts
/// the action, and whose "Cancel" goes back to Home. The same with and without JavaScript.
extension WebController {
    func addConfirmRoutes(to pages: RouterGroup<GatehouseRequestContext>) {
        pages.get("/home/passkeys/{id}/delete") { request, context in
            guard let principal = context.identity else { return Response.redirect(to: "/login", type: .normal) }
            let id = try context.parameters.require("id")
            guard let passkey = try await services.passkeyService().passkeys(of: principal.user.id).first(where: { $0.id == id }) else {
                return Response.redirect(to: "/home", type: .normal)
            }
            return confirmPage(
                question: messages.text(.confirmRemovePasskey, ["name": passkey.name]), action: "/home/passkeys/\(id)/delete",
                submit: messages.text(.passkeyRemove)
            )
        }
        pages.get("/home/devices/{id}/sign-out") { request, context in
            guard let principal = context.identity else { return Response.redirect(to: "/login", type: .normal) }
            let id = try context.parameters.require("id")
            guard let device = try await services.devices.devices(of: principal).first(where: { $0.session.id == id }) else {
                return Response.redirect(to: "/home", type: .normal)
            }
            var label = device.session.deviceLabel ?? DeviceLabel.unknown
            if device.isCurrent { label += " (\(messages.text(.deviceCurrent)))" }
            return confirmPage(
                question: messages.text(.confirmSignOutDevice, ["device": label]), action: "/home/devices/\(id)/sign-out",
                submit: messages.text(.deviceSignOut)
            )
        }
        pages.get("/home/:provider/unlink") { _, context in
            guard context.identity != nil else { return Response.redirect(to: "/login", type: .normal) }
            let provider = try routeProvider(context)
            return confirmPage(
                question: messages.text(.confirmUnlinkProvider, ["provider": provider.settings.label]), action: "/home/\(provider.id.rawValue)/unlink",
                submit: provider.descriptor.text(.unlink, in: messages)
            )
        }
    }

    /// "Are you sure?": the question, the action's button, and "Cancel".
    func confirmPage(question: String, action: String, submit: String) -> Response {
        let csrf = WebCookies.newToken()
        let page = AccountPage(
            title: messages.text(.confirmTitle), notice: question, formID: "confirm-form", action: action, submit: submit,
            links: [.init(id: "cancel-link", text: messages.text(.cancel), href: "/home")]
        )
        return html(render(page.context(csrf: csrf, configuration: configuration), "account"), status: .ok, csrf: csrf)
    }
}
