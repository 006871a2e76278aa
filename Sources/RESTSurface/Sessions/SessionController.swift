import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import Hummingbird

/// The device list over REST: every live session of the signed-in user, and ending one.
package struct SessionController {
    package let pipeline: SignInPipeline
    package let devices: Devices

    package init(pipeline: SignInPipeline, devices: Devices) {
        self.pipeline = pipeline
        self.devices = devices
    }

    package func addRoutes(to router: Router<GatehouseRequestContext>) {
        router.group()
            .add(middleware: BearerAuthenticator(pipeline: pipeline))
            .get("/api/sessions", use: list)
            .delete("/api/sessions/{id}", use: end)
    }

    @Sendable package func list(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let devices = try await devices.devices(of: try context.requirePrincipal())
        return try JSONBody.response(DeviceList(sessions: devices.map(DeviceSummary.init)))
    }

    @Sendable package func end(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        try await devices.endSession(try context.parameters.require("id"), for: try context.requirePrincipal())
        return Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }
}
