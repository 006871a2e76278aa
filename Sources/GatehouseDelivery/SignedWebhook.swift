import Foundation
import Logging

/// A Standard Webhooks receiver: its URL, the signing secret and the shared retries. What the
/// SMS, mail and audit webhooks have in common; each only shapes its body.
package struct SignedWebhook: Sendable {
    package let url: String
    package let signer: WebhookSigner
    package var delivery = HTTPDelivery()
    package let logger: Logger

    /// - Parameters:
    ///   - url: the receiver; https, or http on loopback only.
    ///   - secret: the shared secret as Standard Webhooks writes it (`whsec_` + base64).
    package init(url: String, secret: String, logger: Logger) throws {
        try WebhookSigner.check(url: url)
        self.url = url
        signer = try WebhookSigner(secret: secret)
        self.logger = logger
    }

    /// POSTs `body` signed, with the shared retries; `provider` names it in the log.
    package func post(_ body: Data, provider: String) async throws {
        try await delivery.postSigned(body, to: url, signer: signer, provider: provider, logger: logger)
    }
}
