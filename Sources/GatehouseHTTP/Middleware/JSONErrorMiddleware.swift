import GatehouseCore
import Hummingbird
import Logging
import NIOCore

/// Turns every error into an ``APIError`` JSON response, so no request ends in an empty body.
///
/// Errors that already render themselves (``APIError``, Supabase's ``GoTrueError``) pass
/// through. Errors Gatehouse did not expect become a 500 whose log line names only the error's
/// type, since an error's description could quote request data.
package struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    package init() {}

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError where !(error is HTTPError) {
            throw error
        } catch {
            // A body error a route did not read through JSONBody still gets its 413 or 400.
            throw APIError.from(JSONBody.bodyError(error, limit: context.maxUploadSize), logger: context.logger)
        }
    }
}

extension APIError {
    /// The API error for any error a route threw.
    /// - Parameters:
    ///   - error: what was thrown.
    ///   - logger: where an unexpected error's type is logged.
    package static func from(_ error: any Error, logger: Logger) -> APIError {
        switch error {
        case let error as GatehouseError:
            return APIError(error)
        case let error as APIError:
            return error
        case let error as HTTPError:
            return APIError(error.status, code: code(for: error.status), message: error.body ?? error.status.reasonPhrase, headers: error.headers)
        default:
            logger.error("Unexpected error", metadata: ["error.type": "\(type(of: error))"])
            return APIError(.internalServerError, code: "server_error", message: "Something went wrong. Please try again.")
        }
    }

    package static func code(for status: HTTPResponse.Status) -> String {
        switch status {
        case .notFound: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .unauthorized: "unauthorized"
        case .badRequest, .contentTooLarge: "invalid_request"
        default: status.code >= 500 ? "server_error" : "request_error"
        }
    }
}
