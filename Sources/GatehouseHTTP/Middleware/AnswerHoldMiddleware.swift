import GatehouseCore
import Hummingbird

/// Holds the work each request starts for after its answer (``AnswerHold``) until its
/// response's body has been written; the outermost middleware, so it sees the answer as sent.
///
/// A response that holds nothing is passed on as it is; one that does gets a body that writes
/// the original and then releases the hold, whether or not the write succeeded. A request that
/// fails releases its hold at once.
package struct AnswerHoldMiddleware: RouterMiddleware {
    package typealias Context = GatehouseRequestContext

    package init() {}

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let hold = AnswerHold()
        var response: Response
        do {
            response = try await AnswerHold.$current.withValue(hold) { try await next(request, context) }
        } catch {
            hold.release()
            throw error
        }
        guard hold.isHolding else {
            hold.release()
            return response
        }
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            defer { hold.release() }
            try await body.write(writer)
        }
        return response
    }
}
