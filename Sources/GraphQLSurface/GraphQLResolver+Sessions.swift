import GatehouseCore
import GatehouseModel
import Graphiti

/// The device list for GraphQL apps: the same feature services calls as `/api/sessions`.
extension GraphQLResolver {
    package struct SessionIDArguments: Codable {
        let id: String
    }

    package func sessions(context: GraphQLContext, arguments: NoArguments) async throws -> [DeviceSummary] {
        try await context.services.devices.devices(of: try context.principal()).map(DeviceSummary.init)
    }

    package func endSession(context: GraphQLContext, arguments: SessionIDArguments) async throws -> Bool {
        try await context.services.devices.endSession(arguments.id, for: try context.principal())
        return true
    }
}
