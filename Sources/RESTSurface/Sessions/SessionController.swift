import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import Hummingbird

/// The device list over REST: every live session of the signed-in user, and ending one.
package struct SessionController {
    package let service: AuthService

    package init(service: AuthService) {
        self.service = service
    }

    package func addRoutes(to router: Router<GatehouseRequestContext>) {
        router.group()
            .add(middleware: BearerAuthenticator(service: service))
            .get("/api/sessions", use: list)
            .delete("/api/sessions/{id}", use: end)
    }

    @Sendable package func list(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let devices = try await service.devices(of: try context.requirePrincipal())
        return try JSONBody.response(DeviceList(sessions: devices.map(DeviceSummary.init)))
    }

    @Sendable package func end(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        try await service.endSession(try context.parameters.require("id"), for: try context.requirePrincipal())
        return Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }
}
