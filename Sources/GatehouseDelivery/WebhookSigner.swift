import Crypto
import Foundation
import GatehouseCore

/// Signs a webhook body the Standard Webhooks way, for every channel's webhook sender.
///
/// Headers: `webhook-id` (unique per message), `webhook-timestamp` (Unix seconds) and
/// `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the secret).
package struct WebhookSigner: Sendable {
    package let key: SymmetricKey

    /// - Parameter secret: the shared secret as Standard Webhooks writes it (`whsec_` + base64).
    package init(secret: String) throws {
        let encoded = secret.hasPrefix("whsec_") ? String(secret.dropFirst(6)) : secret
        guard let bytes = Data(base64Encoded: encoded), bytes.count >= 16 else {
            throw DeliveryError("the webhook secret must be whsec_ followed by at least 16 base64 bytes")
        }
        key = SymmetricKey(data: bytes)
    }

    /// The three headers for `body`, sent now.
    package func headers(for body: Data, id given: String? = nil, now: Date = Date()) -> [(name: String, value: String)] {
        let id = given ?? "msg_" + UUID().uuidString.lowercased()
        let timestamp = String(Int(now.timeIntervalSince1970))
        let signed = Data("\(id).\(timestamp).".utf8) + body
        let signature = Data(HMAC<SHA256>.authenticationCode(for: signed, using: key)).base64EncodedString()
        return [("webhook-id", id), ("webhook-timestamp", timestamp), ("webhook-signature", "v1,\(signature)")]
    }

    /// Whether a receiver URL may be used: https, or http on loopback only.
    package static func check(url: String) throws {
        guard let parsed = URL(string: url), let host = parsed.host,
              parsed.scheme == "https" || (parsed.scheme == "http" && ["127.0.0.1", "localhost", "::1"].contains(host))
        else { throw DeliveryError("the webhook URL must be https (http only on loopback)") }
    }
}
