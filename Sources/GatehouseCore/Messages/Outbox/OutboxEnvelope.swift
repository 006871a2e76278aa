import Crypto
import Foundation

/// What an outbox row carries, sealed: the message (address, link, code) and what its send
/// needs (the client address for the audit row, whether the budget was spent in the request,
/// when its secret stops working).
///
/// Sealed with AES-GCM under the key-encryption key and bound to the row's id, so a payload
/// copied into another row does not open.
package struct OutboxEnvelope: Codable, Sendable, Equatable {
    package var message: OutgoingMessage
    package var address: String?
    package var budgetSpent: Bool
    /// Past this the message is useless (its code or link has expired) and is not sent.
    package var expiresAt: Date?

    package init(message: OutgoingMessage, address: String?, budgetSpent: Bool, expiresAt: Date?) {
        self.message = message
        self.address = address
        self.budgetSpent = budgetSpent
        self.expiresAt = expiresAt
    }

    /// The stored form, bound to `id`.
    package func sealed(id: String, kek: SymmetricKey) throws -> String {
        let box = try AES.GCM.seal(try JSONEncoder().encode(self), using: kek, authenticating: Data(id.utf8))
        guard let combined = box.combined else { throw CryptoKitError.incorrectParameterSize }
        return combined.base64URLEncoded()
    }

    /// Opens a stored payload; `nil` when it was sealed under another key or for another row.
    package init?(sealed text: String, id: String, kek: SymmetricKey) {
        guard let data = Data(base64URLEncoded: text),
              let box = try? AES.GCM.SealedBox(combined: data),
              let plain = try? AES.GCM.open(box, using: kek, authenticating: Data(id.utf8)),
              let envelope = try? JSONDecoder().decode(OutboxEnvelope.self, from: plain)
        else { return nil }
        self = envelope
    }
}
