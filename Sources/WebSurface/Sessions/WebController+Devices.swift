import Foundation
import GatehouseCore
import GatehouseHTTP
import Hummingbird
import LoginCore

/// Home's "Your devices": every live session of the signed-in user, with "Sign out" on each.
extension WebController {
    func addDeviceRoutes(to pages: RouterGroup<GatehouseRequestContext>) {
        pages.post("/home/devices/{id}/sign-out", use: signOutDevice)
    }

    /// The device list for the home template.
    func homeDeviceContext(_ request: Request, principal: Principal) async throws -> [String: Any] {
        let m = configuration.messages
        let dates = Date.FormatStyle(date: .abbreviated, time: .shortened).locale(Locale(identifier: "en_GB"))
        let devices: [[String: Any]] = try await services.devices.devices(of: principal).map { device in
            let session = device.session
            return [
                "id": session.id, "label": session.deviceLabel ?? DeviceLabel.unknown, "address": session.address ?? "",
                "current": device.isCurrent,
                "lastActive": m.text(.deviceLastActive, ["date": (session.lastSeenAt ?? session.createdAt).formatted(dates)]),
            ]
        }
        var context: [String: Any] = [
            "devices": devices, "devicesTitle": m.text(.devicesTitle), "deviceCurrent": m.text(.deviceCurrent),
            "deviceSignOut": m.text(.deviceSignOut),
        ]
        if request.uri.queryParameters["device"] == "signed-out" { context["deviceNotice"] = m.text(.deviceSignedOut) }
        return context
    }

    /// `POST /home/devices/{id}/sign-out`: ends that device's session; this device's own is a sign-out.
    @Sendable func signOutDevice(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        guard let principal = context.identity else { return Response.redirect(to: "/login", type: .normal) }
        let id = try context.parameters.require("id")
        try await services.devices.endSession(id, for: principal)
        if id == principal.session.id {
            var response = Response.redirect(to: "/login", type: .normal)
            response.setCookie(WebCookies.expired(WebCookies.session))
            return response
        }
        return Response.redirect(to: "/home?device=signed-out", type: .normal)
    }
}
