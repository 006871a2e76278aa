import Foundation

/// Where a queued message is in its life.
public enum OutboxState: String, Sendable, Equatable, Codable, CaseIterable {
    /// Waiting to be sent, or being sent under a lease.
    case pending
    /// Handed to its provider; its sealed content is gone.
    case sent
    /// Given up on: a permanent refusal, the retry limit, its secret's expiry or the hourly
    /// budget. `gatehouse outbox retry` puts it back.
    case dead
}

/// One outgoing message as the outbox keeps it: written in the same transaction as the change
/// that caused it, claimed under a lease, sent at least once.
///
/// The row names its recipient only by keyed reference; the message itself (address, link,
/// code) is ``sealedPayload``, sealed under the key-encryption key and dropped once sent.
public struct OutboxRecord: Sendable, Equatable {
    /// Stable across retries: mail's `Message-ID`, a webhook's `webhook-id`.
    public var id: String
    public var channel: MessageChannel
    public var purpose: MessagePurpose
    /// The recipient's keyed reference, the one audit rows use.
    public var recipient: String
    /// The ``OutboxEnvelope``, sealed; `nil` once sent.
    public var sealedPayload: String?
    public var state: OutboxState
    /// Failed tries so far.
    public var attempts: Int
    public var nextAttemptAt: Date
    /// Until when an instance holds it to send; another may take it after.
    public var leaseUntil: Date?
    public var createdAt: Date
    public var sentAt: Date?
    /// Why the last try failed, safe to show (never the content).
    public var lastError: String?

    public init(
        id: String, channel: MessageChannel, purpose: MessagePurpose, recipient: String, sealedPayload: String?, state: OutboxState = .pending,
        attempts: Int = 0, nextAttemptAt: Date, leaseUntil: Date? = nil, createdAt: Date, sentAt: Date? = nil, lastError: String? = nil
    ) {
        self.id = id
        self.channel = channel
        self.purpose = purpose
        self.recipient = recipient
        self.sealedPayload = sealedPayload
        self.state = state
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.leaseUntil = leaseUntil
        self.createdAt = createdAt
        self.sentAt = sentAt
        self.lastError = lastError
    }
}

/// How many messages wait, and for how long the oldest has.
public struct OutboxBacklog: Sendable, Equatable {
    public var pending: Int
    public var dead: Int
    public var oldestPendingAt: Date?

    public init(pending: Int, dead: Int, oldestPendingAt: Date?) {
        self.pending = pending
        self.dead = dead
        self.oldestPendingAt = oldestPendingAt
    }
}
