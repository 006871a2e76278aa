import GatehouseHTTP
import Hummingbird

extension Request {
    /// Whether the page's script asked for JSON (`Accept: application/json`) rather than a page.
    package var wantsJSON: Bool { headers[.accept]?.contains("application/json") == true }

    /// The one place a web form chooses its answer: JSON for the page's script, the page itself
    /// (or a redirect) without JavaScript.
    ///
    /// Both carry the same outcome, so a screen behaves alike with and without its script; a
    /// wait goes in `Retry-After` on either.
    /// - Parameters:
    ///   - json: the script's answer; built only when the script asked for it.
    ///   - status: the JSON answer's status (the page sets its own).
    ///   - retryAfter: seconds until a retry may succeed, if the answer is a refusal that says so.
    ///   - page: the answer without JavaScript.
    package func answer(
        json: @autoclosure () -> some Encodable, status: HTTPResponse.Status = .ok, retryAfter: Int? = nil,
        page: () throws -> Response
    ) throws -> Response {
        var response = wantsJSON ? try JSONBody.response(json(), status: status) : try page()
        if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        return response
    }
}
