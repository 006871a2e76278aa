import GatehouseCore
import Hummingbird
import Logging
import NIOCore

/// Turns every error into an ``APIError`` JSON response, so no request ends in an empty body.
///
/// Errors that already render themselves (``APIError``, Supabase's ``GoTrueError``) pass
/// through; every other error becomes its ``GatehouseError`` case first
/// (``GatehouseError/from(_:limit:logger:)``), so no code is derived from a status or a string.
package struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    package init() {}

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError where !(error is HTTPError) {
            throw error
        } catch {
            // A body error a route did not read through JSONBody still gets its 413 or 400.
            throw APIError(GatehouseError.from(error, limit: context.maxUploadSize, logger: context.logger))
        }
    }
}

extension GatehouseError {
    /// The vocabulary's case for anything a route threw, so every surface renders errors it did
    /// not raise itself (routing, body limits, the unexpected) with its one switch.
    /// - Parameters:
    ///   - error: what was thrown.
    ///   - limit: the route's body limit, for a body that was too large.
    ///   - logger: where an unexpected error's type is logged (never its description, which
    ///     could quote request data).
    package static func from(_ error: any Error, limit: Int, logger: Logger) -> GatehouseError {
        switch JSONBody.bodyError(error, limit: limit) {
        case let error as GatehouseError:
            return error
        case let error as AdministrationError:
            return .administration(error)
        case let error as any StorageFailure where error.meansUnavailable:
            logger.error("Database unavailable; answered 503", metadata: ["error.type": "\(type(of: error))"])
            return .overloaded(retryAfter: 1)
        case let error as HTTPError:
            switch error.status {
            case .notFound: return .notFound
            case .methodNotAllowed: return .methodNotAllowed
            case .contentTooLarge: return .payloadTooLarge(limit: limit)
            case .unauthorized: return .unauthenticated
            default:
                guard error.status.code < 500 else { return .unexpected }
                return .invalidRequest(error.body ?? error.status.reasonPhrase)
            }
        default:
            logger.error("Unexpected error", metadata: ["error.type": "\(type(of: error))"])
            return .unexpected
        }
    }
}
