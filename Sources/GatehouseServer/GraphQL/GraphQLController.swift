import Foundation
import GraphQL
import Hummingbird
import HummingbirdAuth
import LoginCore

/// `POST /graphql`: seed 001's login mutation, `refresh`, `logout` and the `me` query.
///
/// Every answer is a GraphQL response (`{"data": …, "errors": […]}`), never a 500: syntax
/// errors, invalid documents and failed operations all become entries of `errors` whose
/// `extensions.code` says what happened. A body that is not a GraphQL request gets status 400
/// with the same shape.
struct GraphQLController {
    let service: AuthService
    let api: GatehouseGraphQL
    let messages: MessageCatalogue

    init(service: AuthService, messages: MessageCatalogue) throws {
        self.service = service
        self.messages = messages
        api = try GatehouseGraphQL()
    }

    func addRoutes(to router: Router<GatehouseRequestContext>) {
        router.post("/graphql", use: execute)
    }

    @Sendable func execute(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let query: GraphQLRequest
        do {
            let body = try await JSONBody.collect(request, context: context)
            query = try JSONDecoder().decode(GraphQLRequest.self, from: Data(buffer: body))
        } catch let error as APIError {
            return try respond(GraphQLResult(errors: [failure(error)]), status: .badRequest)
        } catch {
            let message = "The body must be a JSON object with a string \"query\" and optional \"variables\" and \"operationName\""
            return try respond(GraphQLResult(errors: [GraphQLFailure.badRequest(message)]), status: .badRequest)
        }
        let graphQLContext = GraphQLContext(service: service, bearerToken: request.headers.bearer?.token)
        let result: GraphQLResult
        do {
            result = try await api.execute(
                request: query, context: graphQLContext, validationRules: [SingleSignInRule.validate]
            )
        } catch let error as GraphQLError {
            let firstLine = error.message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? error.message
            result = GraphQLResult(errors: [GraphQLFailure.badRequest(firstLine, locations: error.locations)])
        } catch {
            context.logger.error("GraphQL execution failed", metadata: ["error.type": "\(type(of: error))"])
            result = GraphQLResult(errors: [GraphQLFailure.internalError()])
        }
        return try respond(GraphQLResult(data: result.data, errors: result.errors.map(mapped)))
    }

    /// Gives every error a code, and replaces an error a resolver threw with its public message.
    private func mapped(_ error: GraphQLError) -> GraphQLError {
        guard let original = error.originalError else {
            guard error.extensions["code"] == nil else { return error }
            // The library's own errors: validation (no path) or a broken result (with a path).
            let code = error.path.elements.isEmpty ? "GRAPHQL_VALIDATION_FAILED" : "INTERNAL_SERVER_ERROR"
            return GraphQLFailure.make(code: code, message: error.message, locations: error.locations, path: error.path)
        }
        guard let apiError = original as? APIError else {
            return GraphQLFailure.internalError(locations: error.locations, path: error.path)
        }
        return failure(apiError, locations: error.locations, path: error.path)
    }

    private func failure(_ error: APIError, locations: [SourceLocation] = [], path: GraphQL.IndexPath = []) -> GraphQLError {
        let message = error.code == APIError.invalidCredentials.code ? messages.text(.invalidCredentials) : error.message
        return GraphQLFailure.make(code: GraphQLFailure.code(for: error), message: message, locations: locations, path: path)
    }

    private func respond(_ result: GraphQLResult, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try GraphQLJSONEncoder().encode(result)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}
