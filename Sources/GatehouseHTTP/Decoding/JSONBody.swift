import Foundation
import GatehouseCore
import Hummingbird
import NIOCore
import NIOHTTP1

/// Strict JSON request bodies and `no-store` JSON responses.
///
/// Decoding errors become ``GatehouseError/invalidRequest(_:)`` naming the offending key but never
/// quoting its value, which could be a password.
package enum JSONBody {
    /// Sorted keys, so equal values always give byte-identical bodies.
    package static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The whole body, refused with a clear message when it exceeds the context's limit.
    package static func collect(_ request: Request, context: some RequestContext) async throws -> ByteBuffer {
        do {
            return try await request.body.collect(upTo: context.maxUploadSize)
        } catch {
            throw bodyError(error, limit: context.maxUploadSize)
        }
    }

    /// The whole body, kept on the request for whoever reads it next (a middleware before its
    /// handler), refused as ``collect(_:context:)`` refuses.
    package static func collectKeeping(_ request: inout Request, context: some RequestContext) async throws -> ByteBuffer {
        do {
            return try await request.collectBody(upTo: context.maxUploadSize)
        } catch {
            throw bodyError(error, limit: context.maxUploadSize)
        }
    }

    /// The domain error for a body that could not be read: too large (413) or malformed, such
    /// as a broken chunked encoding (400, the client's fault, never logged as an error).
    package static func bodyError(_ error: any Error, limit: Int) -> any Error {
        switch error {
        case is NIOTooManyBytesError: GatehouseError.payloadTooLarge(limit: limit)
        case is HTTPParserError: GatehouseError.invalidRequest("The request could not be parsed")
        default: error
        }
    }

    package static func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        let buffer = try await collect(request, context: context)
        try DuplicateKeyCheck.require(buffer.readableBytesView)
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer: buffer))
        } catch DecodingError.keyNotFound(let key, _) {
            throw GatehouseError.invalidRequest("\(key.stringValue) is required")
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            let key = context.codingPath.last?.stringValue ?? "body"
            throw GatehouseError.invalidRequest(key == "body" ? "The body must be a JSON object" : "\(key) must be a string")
        } catch {
            throw GatehouseError.invalidRequest("The body must be a JSON object")
        }
    }

    /// Like ``decode(_:from:context:)``, but an empty body is `nil` rather than an error.
    package static func decodeIfPresent<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T? {
        var request = request
        let buffer = try await collectKeeping(&request, context: context)
        guard buffer.readableBytes > 0 else { return nil }
        return try await decode(type, from: request, context: context)
    }

    package static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try encoder.encode(value)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}
