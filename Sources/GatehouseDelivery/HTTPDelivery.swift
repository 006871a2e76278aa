import AsyncHTTPClient
import Foundation
import GatehouseCore
import Logging
import NIOCore
import NIOFoundationCompat

/// One HTTP request to a delivery provider, with a timeout and retries: what every HTTP
/// sender shares (the SMS and mail webhooks, Kannel).
///
/// A 2xx answer delivers. A 5xx answer, a timeout or a refused connection is tried again, up to
/// ``attempts`` times with a growing pause; a 4xx answer is final. Every failure becomes a
/// ``DeliveryError`` naming the status, never the message.
package struct HTTPDelivery: Sendable {
    package var attempts = 3
    package var timeout: TimeAmount = .seconds(5)
    /// The pause before the second try; doubled before each later one.
    package var backoff: Duration = .milliseconds(250)

    package func send(_ make: @Sendable () throws -> HTTPClientRequest, provider: String, logger: Logger) async throws {
        var last = "no attempt"
        for attempt in 1...attempts {
            if attempt > 1 { try await Task.sleep(for: backoff * (1 << (attempt - 2))) }
            do {
                let response = try await HTTPClient.outgoing.execute(try make(), timeout: timeout)
                _ = try? await response.body.collect(upTo: 64 * 1024)
                if (200..<300).contains(response.status.code) { return }
                last = "HTTP \(response.status.code)"
                if (400..<500).contains(response.status.code) { throw DeliveryError("\(provider): \(last)", permanent: true) }
            } catch let refusal as DeliveryError {
                throw refusal
            } catch {
                last = String(describing: type(of: error))
            }
            logger.warning("Delivery attempt failed", metadata: ["delivery.provider": "\(provider)", "attempt": "\(attempt)", "error": "\(last)"])
        }
        throw DeliveryError("\(provider): \(last)")
    }

    /// POSTs a JSON body to a Standard Webhooks receiver, signed by `signer`, with the retries above.
    package func postSigned(_ body: Data, id: String?, to url: String, signer: WebhookSigner, provider: String, logger: Logger) async throws {
        let headers = signer.headers(for: body, id: id)
        try await send({
            var request = HTTPClientRequest(url: url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            for header in headers { request.headers.add(name: header.name, value: header.value) }
            request.body = .bytes(ByteBuffer(data: body))
            return request
        }, provider: provider, logger: logger)
    }
}
