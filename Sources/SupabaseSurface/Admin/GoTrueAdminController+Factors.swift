import Foundation
import GatehouseCore
import GatehouseHTTP
import Hummingbird

/// The admin API's factor routes (issue 37), as `supabase-auth`'s `admin.mfa` calls them; each
/// removal is audited as done by `service_role` (``UserAdministration/removeFactor(_:of:)``).
extension GoTrueAdminController {
    /// `GET /admin/users/{id}/factors`: the account's factors, unverified ones too.
    @Sendable package func listFactors(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        try requireFactors()
        let user = try await admin.account(.id(try context.parameters.require("id")))
        return try JSONBody.response(try await admin.factors(of: user).map(GoTrueFactor.init))
    }

    /// `DELETE /admin/users/{id}/factors/{factor}`.
    @Sendable package func deleteFactor(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        try requireFactors()
        let user = try await admin.account(.id(try context.parameters.require("id")))
        let id = try context.parameters.require("factor")
        guard try await admin.removeFactor(id, of: user) else { throw GatehouseError.notFound }
        return try JSONBody.response(["id": id])
    }

    /// The factor routes answer only where the app offers second factors.
    private func requireFactors() throws {
        guard offersFactors else { throw GatehouseError.featureNotOffered(.secondFactors) }
    }
}
