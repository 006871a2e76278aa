import Hummingbird
import Logging
import NIOCore

/// Turns every error into an ``APIError`` JSON response, so no request ends in an empty body.
///
/// Errors Gatehouse did not expect become a 500 whose log line names only the error's type,
/// since an error's description could quote request data.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as HTTPError {
            throw APIError(error.status, code: Self.code(for: error.status), message: error.body ?? error.status.reasonPhrase, headers: error.headers)
        } catch is NIOTooManyBytesError {
            throw APIError.invalidRequest("The request body is too large")
        } catch {
            context.logger.error("Unexpected error", metadata: ["error.type": "\(type(of: error))"])
            throw APIError(.internalServerError, code: "server_error", message: "Something went wrong. Please try again.")
        }
    }

    static func code(for status: HTTPResponse.Status) -> String {
        switch status {
        case .notFound: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .unauthorized: "unauthorized"
        case .badRequest, .contentTooLarge: "invalid_request"
        default: status.code >= 500 ? "server_error" : "request_error"
        }
    }
}
