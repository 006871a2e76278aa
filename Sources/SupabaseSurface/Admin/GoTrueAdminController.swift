import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import HTTPTypes
import Hummingbird

/// Supabase Auth's admin API under `/auth/v1/admin/users`: list (paged), get, create, update
/// (`password`, `email`, `phone`, `user_metadata` names, `ban_duration`) and delete.
///
/// Only the service role key opens it (``ServiceRoleMiddleware``); every change is audited as
/// done by `service_role` through ``UserAdministration``, the same operations as the CLI's.
package struct GoTrueAdminController {
    package let admin: UserAdministration
    package let serviceRoleKey: String
    /// Whether the app offers second factors (the factor routes answer).
    package let offersFactors: Bool
    /// The most users one page may ask for.
    package static let maximumPerPage = 1000

    package init(admin: UserAdministration, serviceRoleKey: String, offersFactors: Bool = false) {
        self.offersFactors = offersFactors
        self.admin = admin
        self.serviceRoleKey = serviceRoleKey
    }

    package func addRoutes(to router: Router<GatehouseRequestContext>) {
        router.group("/auth/v1/admin")
            .add(middleware: GoTrueErrorMiddleware())
            .add(middleware: ServiceRoleMiddleware(serviceRoleKey: serviceRoleKey))
            .get("/users", use: list)
            .post("/users", use: create)
            .get("/users/{id}", use: get)
            .put("/users/{id}", use: update)
            .delete("/users/{id}", use: delete)
            .get("/users/{id}/factors", use: listFactors)
            .delete("/users/{id}/factors/{factor}", use: deleteFactor)
    }

    @Sendable package func list(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let page = try Self.positive(query["page"], name: "page") ?? 1
        let perPage = min(try Self.positive(query["per_page"], name: "per_page") ?? 50, Self.maximumPerPage)
        let (users, total) = try await admin.page(page, perPage: perPage)
        var rendered: [GoTrueUser] = []
        for user in users { rendered.append(GoTrueUser(user, identities: try await admin.identities(of: user))) }
        var response = try JSONBody.response(GoTrueUserPage(users: rendered))
        response.headers[.totalCount] = String(total)
        let last = max(1, (total + perPage - 1) / perPage)
        var links = ["</admin/users?page=\(last)&per_page=\(perPage)>; rel=\"last\""]
        if page < last { links.insert("</admin/users?page=\(page + 1)&per_page=\(perPage)>; rel=\"next\"", at: 0) }
        response.headers[.link] = links.joined(separator: ", ")
        return response
    }

    @Sendable package func get(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        try await render(try await admin.account(.id(try context.parameters.require("id"))))
    }

    @Sendable package func create(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(GoTrueAdminUserRequest.self, from: request, context: context)
        guard body.email != nil || body.phone != nil else { throw GatehouseError.invalidRequest("Unable to validate email address: invalid format") }
        let ban = try body.ban()
        var user = try await admin.create(
            email: body.email, phone: body.phone, password: body.password,
            name: body.userMetadata?.personName ?? PersonName(first: Self.defaultName(body), last: ""),
            emailConfirmed: body.emailConfirm ?? false, phoneConfirmed: body.phoneConfirm ?? false
        )
        if let ban { user = try await admin.update(.id(user.id), with: AccountChange(ban: ban)) }
        return try await render(user)
    }

    @Sendable package func update(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(GoTrueAdminUserRequest.self, from: request, context: context)
        return try await render(try await admin.update(.id(try context.parameters.require("id")), with: try body.change))
    }

    @Sendable package func delete(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        try await admin.delete(account: .id(try context.parameters.require("id")))
        return try JSONBody.response([String: String]())
    }

    private func render(_ user: UserRecord) async throws -> Response {
        try JSONBody.response(GoTrueUser(user, identities: try await admin.identities(of: user)))
    }

    /// A name for an account created without one: the email's local part, or "User".
    private static func defaultName(_ body: GoTrueAdminUserRequest) -> String {
        let local = body.email?.split(separator: "@").first.map(String.init) ?? ""
        return local.isEmpty ? "User" : String(local.prefix(100))
    }

    /// A page parameter; absent or empty (`?page=&per_page=`, as `supabase-auth`'s
    /// `list_users()` sends by default) is the default, as GoTrue reads it.
    private static func positive(_ text: Substring?, name: String) throws -> Int? {
        guard let text, !text.isEmpty else { return nil }
        guard let value = Int(text), value >= 1, value <= 1_000_000 else {
            throw GatehouseError.invalidRequest("\(name) must be a whole number from 1")
        }
        return value
    }
}

/// Lets a request through only with `Authorization: Bearer <service role key>`, compared in
/// constant time: never the anon key, never a user's token.
package struct ServiceRoleMiddleware<Context: RequestContext>: RouterMiddleware {
    package let serviceRoleKey: String

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { throw GoTrueError.noAuthorization }
        guard ConstantTime.equal(String(header.dropFirst(7)), serviceRoleKey) else {
            throw GoTrueError(.forbidden, .notAdmin, "User not allowed")
        }
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    package static let totalCount = HTTPField.Name("X-Total-Count")!
    package static let link = HTTPField.Name("Link")!
}
