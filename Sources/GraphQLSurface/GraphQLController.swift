import GatehouseModel
import Foundation
import GatehouseCore
import GatehouseHTTP
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
package struct GraphQLController {
    package let services: GatehouseServices
    package let api: GatehouseGraphQL
    package let messages: MessageCatalogue
    package let limits: GraphQLLimits

    package init(services: GatehouseServices, messages: MessageCatalogue, limits: GraphQLLimits = GraphQLLimits()) throws {
        self.services = services
        self.messages = messages
        self.limits = limits
        api = try GatehouseGraphQL()
    }

    package func addRoutes(to router: Router<GatehouseRequestContext>) {
        router.group().add(middleware: BearerAuthenticator(pipeline: services.pipeline)).post("/graphql", use: execute)
    }

    @Sendable package func execute(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let query: GraphQLRequest
        do {
            let body = try await JSONBody.collect(request, context: context)
            try DuplicateKeyCheck.require(body.readableBytesView)
            query = try JSONDecoder().decode(GraphQLRequest.self, from: Data(buffer: body))
        } catch let error as GatehouseError {
            return try respond(GraphQLResult(errors: [GraphQLFailure.make(error, messages: messages)]), status: (.badRequest, nil))
        } catch {
            let message = "The body must be a JSON object with a string \"query\" and optional \"variables\" and \"operationName\""
            return try respond(GraphQLResult(errors: [GraphQLFailure.badRequest(message)]), status: (.badRequest, nil))
        }
        let graphQLContext = GraphQLContext(services: services, request: context)
        let result: GraphQLResult
        do {
            result = try await api.run(query, context: graphQLContext, limits: limits)
        } catch let error as GraphQLError {
            let firstLine = error.message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? error.message
            result = GraphQLResult(errors: [GraphQLFailure.badRequest(firstLine, locations: error.locations)])
        } catch {
            context.logger.error("GraphQL execution failed", metadata: ["error.type": "\(type(of: error))"])
            result = GraphQLResult(errors: [GraphQLFailure.internalError()])
        }
        var response = try respond(GraphQLResult(data: result.data, errors: result.errors.map(mapped)), status: status(of: result))
        if let device = graphQLContext.deviceToken.withLockedValue({ $0 }) { response.headers[.gatehouseDevice] = device }
        if let binding = graphQLContext.signUpBinding.withLockedValue({ $0 }) { response.headers[.gatehouseSignUp] = binding }
        return response
    }

    /// 429 or 503 with `Retry-After` when a sign-in was throttled or the server was busy, as on REST.
    private func status(of result: GraphQLResult) -> (HTTPResponse.Status, Int?) {
        for error in result.errors {
            guard let failure = error.originalError as? GatehouseError, let answer = GraphQLFailure.httpStatus(of: failure) else { continue }
            return answer
        }
        return (.ok, nil)
    }

    /// Gives every error a code, and replaces an error a resolver threw with its public message.
    private func mapped(_ error: GraphQLError) -> GraphQLError {
        guard let original = error.originalError else {
            guard error.extensions["code"] == nil else { return error }
            // The library's own errors: validation (no path) or a broken result (with a path).
            let code: GraphQLErrorCode = error.path.elements.isEmpty ? .validationFailed : .internalServerError
            return GraphQLFailure.make(code: code, message: error.message, locations: error.locations, path: error.path)
        }
        guard let domainError = original as? GatehouseError else {
            return GraphQLFailure.internalError(locations: error.locations, path: error.path)
        }
        return GraphQLFailure.make(domainError, messages: messages, locations: error.locations, path: error.path)
    }

    private func respond(_ result: GraphQLResult, status: (HTTPResponse.Status, Int?) = (.ok, nil)) throws -> Response {
        let data = try GraphQLJSONEncoder().encode(result)
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        if let retryAfter = status.1 { headers[.retryAfter] = String(retryAfter) }
        return Response(status: status.0, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
