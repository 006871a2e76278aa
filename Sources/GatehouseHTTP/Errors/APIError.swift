import Foundation
import GatehouseCore
import GatehouseModel
import HTTPTypes
import Hummingbird

/// An error response of the REST API: a status and a JSON body `{"error": code, "message": text}`.
///
/// Every failure the API reports is one of these, so clients always get the same shape and the
/// body is never cached. A rate-limited answer adds `retry_after` and a `Retry-After` header.
public struct APIError: HTTPResponseError, Equatable {
    public var status: HTTPResponse.Status
    /// A stable, machine-readable code such as `invalid_credentials`, from the table the SDK reads.
    public var code: ServerErrorCode
    /// A human-readable explanation; never contains a password or token.
    public var message: String
    /// Extra response headers, such as `WWW-Authenticate`.
    public var headers: HTTPFields
    /// Seconds until a retry may succeed (429 and 503).
    public var retryAfter: Int?
    /// Tries left on a one-time code.
    public var attemptsLeft: Int?

    public init(
        _ status: HTTPResponse.Status, code: ServerErrorCode, message: String, headers: HTTPFields = [:], retryAfter: Int? = nil,
        attemptsLeft: Int? = nil
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
        self.retryAfter = retryAfter
        self.attemptsLeft = attemptsLeft
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = try JSONBody.encoder.encode(ErrorBody(error: code.rawValue, message: message, retryAfter: retryAfter, attemptsLeft: attemptsLeft))
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = "no-store"
        if let retryAfter { fields[.retryAfter] = String(retryAfter) }
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// The JSON body of every error: `error` and `message`, and `retry_after` when there is a wait.
package struct ErrorBody: Encodable {
    package let error: String
    package let message: String
    package let retryAfter: Int?
    package let attemptsLeft: Int?

    package enum CodingKeys: String, CodingKey {
        case error, message
        case retryAfter = "retry_after"
        case attemptsLeft = "attempts_left"
    }
}

extension APIError {
    /// The REST rendering of a domain error: its one presentation, as it is.
    package init(_ error: GatehouseError) {
        self.init(error.presentation)
    }

    /// The REST rendering of a presentation: its status, code, text, wait and tries left, with
    /// the Bearer challenge as `WWW-Authenticate`.
    package init(_ presentation: ErrorPresentation) {
        var headers: HTTPFields = [:]
        if let challenge = presentation.challenge { headers[.wwwAuthenticate] = challenge }
        self.init(
            presentation.httpStatus, code: presentation.code, message: presentation.text, headers: headers,
            retryAfter: presentation.retryAfter, attemptsLeft: presentation.attemptsLeft
        )
    }
}

extension ErrorPresentation {
    /// The presentation's status, as the HTTP types say it.
    package var httpStatus: HTTPResponse.Status { HTTPResponse.Status(code: status) }
}

extension HTTPField.Name {
    package static let retryAfter = HTTPField.Name("Retry-After")!
}
