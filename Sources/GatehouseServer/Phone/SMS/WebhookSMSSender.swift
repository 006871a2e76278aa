import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import NIOCore

/// Posts each SMS to an HTTPS endpoint, signed the Standard Webhooks way.
///
/// The body is Supabase's Send SMS hook body (`{"user": {"phone"}, "sms": {"otp"}}`) plus the
/// full text under `sms.message`, so a receiver written for Supabase works unchanged. Headers:
/// `webhook-id` (unique per message), `webhook-timestamp` (Unix seconds) and
/// `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the secret).
public struct WebhookSMSSender: SMSSender {
    let url: String
    let key: SymmetricKey
    let post: HTTPSMSPost
    let logger: Logger

    /// - Parameters:
    ///   - url: the receiver; https, or http on loopback only.
    ///   - secret: the shared secret as Standard Webhooks writes it (`whsec_` + base64).
    public init(url: String, secret: String, logger: Logger) throws {
        guard let parsed = URL(string: url), let host = parsed.host,
              parsed.scheme == "https" || (parsed.scheme == "http" && ["127.0.0.1", "localhost", "::1"].contains(host))
        else { throw SMSDeliveryError("the webhook URL must be https (http only on loopback)") }
        let encoded = secret.hasPrefix("whsec_") ? String(secret.dropFirst(6)) : secret
        guard let bytes = Data(base64Encoded: encoded), bytes.count >= 16 else {
            throw SMSDeliveryError("the webhook secret must be whsec_ followed by at least 16 base64 bytes")
        }
        self.url = url
        key = SymmetricKey(data: bytes)
        post = HTTPSMSPost()
        self.logger = logger
    }

    public func send(_ message: SMSMessage) async throws {
        struct Body: Encodable {
            struct User: Encodable { let phone: String }
            struct SMS: Encodable {
                let otp: String
                let message: String
            }
            let user: User
            let sms: SMS
        }
        let body = try JSONEncoder().encode(Body(user: .init(phone: message.to), sms: .init(otp: message.code, message: message.body)))
        let id = "msg_" + UUID().uuidString.lowercased()
        let timestamp = String(Int(Date().timeIntervalSince1970))
        let signed = Data("\(id).\(timestamp).".utf8) + body
        let signature = Data(HMAC<SHA256>.authenticationCode(for: signed, using: key)).base64EncodedString()
        let url = url
        try await post.send({
            var request = HTTPClientRequest(url: url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "webhook-id", value: id)
            request.headers.add(name: "webhook-timestamp", value: timestamp)
            request.headers.add(name: "webhook-signature", value: "v1,\(signature)")
            request.body = .bytes(ByteBuffer(data: body))
            return request
        }, provider: "webhook", logger: logger)
        logger.info("SMS handed to the webhook", metadata: ["sms.to": "\(PhoneLog.redacted(message.to))"])
    }
}
