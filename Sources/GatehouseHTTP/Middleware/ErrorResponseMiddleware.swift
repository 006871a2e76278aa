import Hummingbird

/// Turns an error that knows its response into that response, so a middleware outside it
/// (Hummingbird's `MetricsMiddleware`) times refused requests like answered ones: that
/// middleware records durations only for responses, never for thrown errors.
package struct ErrorResponseMiddleware<Context: RequestContext>: RouterMiddleware {
    package init() {}

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError {
            return try error.response(from: request, context: context)
        }
    }
}
