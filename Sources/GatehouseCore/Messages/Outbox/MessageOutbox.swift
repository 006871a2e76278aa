import Crypto
import Foundation
import GatehouseModel
import Logging
import Metrics
import NIOConcurrencyHelpers

/// The one way out for mail and SMS: every message is a row written with the change that
/// caused it, then sent at least once.
///
/// A request stores its message (``queue(_:purpose:address:expiresAt:now:)``, or with its secret
/// in one transaction) under a lease of its own, and after the answer this instance sends it at
/// once (``deliver(_:)``). Whatever is left (a failed try waiting for its retry, or a message of
/// an instance that died) the ``OutboxWorker`` of any instance claims once it is due. The id a
/// message is stored under is its `Message-ID` and `webhook-id` on every try, so a receiver can
/// drop a repeat.
public final class MessageOutbox: Sendable {
    package let repository: any OutboxRepository
    package let policy: OutboxPolicy
    private let kek: SymmetricKey
    private let deliveries: DeliveryQueue?
    private let dispatchers = NIOLockedValueBox<[MessageChannel: MessageDispatch]>([:])
    package let clock: @Sendable () -> Date
    package let logger: Logger
    package let metrics: any MetricsFactory

    public init(
        repository: any OutboxRepository, kek: SymmetricKey, policy: OutboxPolicy = OutboxPolicy(), deliveries: DeliveryQueue?,
        clock: @escaping @Sendable () -> Date = Date.init, logger: Logger, metrics: any MetricsFactory = MetricsSystem.factory
    ) {
        self.repository = repository
        self.kek = kek
        self.policy = policy
        self.deliveries = deliveries
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
    }

    /// Sets the send step (budget, sender, count, report) of one channel.
    package func register(_ dispatch: MessageDispatch) {
        dispatchers.withLockedValue { $0[dispatch.channel] = dispatch }
    }

    /// The row for a message, sealed, leased to this instance for its first send.
    /// - Parameters:
    ///   - address: the client address whose request caused it, for the audit row.
    ///   - expiresAt: when its code or link stops working; it is not sent after.
    ///   - budgetSpent: the request already spent the hourly budget for it.
    package func record(
        _ message: OutgoingMessage, purpose: MessagePurpose, address: String?, expiresAt: Date?, budgetSpent: Bool = false, now: Date
    ) throws -> OutboxRecord {
        guard let dispatch = dispatcher(message.channel) else { throw DeliveryError("no \(message.channel.rawValue) channel is configured") }
        let id = RefreshToken.generate(prefix: "ghx_")
        let envelope = OutboxEnvelope(message: message.identified(by: id), address: address, budgetSpent: budgetSpent, expiresAt: expiresAt)
        return OutboxRecord(
            id: id, channel: message.channel, purpose: purpose, recipient: dispatch.references.reference(for: message.recipient),
            sealedPayload: try envelope.sealed(id: id, kek: kek), nextAttemptAt: now, leaseUntil: now.addingTimeInterval(policy.lease),
            createdAt: now
        )
    }

    /// Stores a message on its own and sends it after the answer.
    package func queue(_ message: OutgoingMessage, purpose: MessagePurpose, address: String?, expiresAt: Date? = nil, now: Date) async throws {
        let record = try record(message, purpose: purpose, address: address, expiresAt: expiresAt, now: now)
        try await repository.queueMessage(record)
        deliverSoon(record)
    }

    /// Stores a secret and the message that carries it in one transaction, and sends the
    /// message after the answer.
    package func queue(_ record: OutboxRecord, with secret: OneTimeSecret) async throws {
        try await repository.putSecret(secret, queueing: record)
        deliverSoon(record)
    }

    /// Stores a secret with a message's row as already settled (when it was made): for a decoy,
    /// whose message is composed and sealed like a real one (the same work in the request) and
    /// never sent. The row keeps no content and is pruned with the sent ones.
    package func storeSettled(_ record: OutboxRecord, with secret: OneTimeSecret) async throws {
        var settled = record
        (settled.state, settled.sentAt, settled.sealedPayload, settled.leaseUntil) = (.sent, record.createdAt, nil, nil)
        try await repository.putSecret(secret, queueing: settled)
    }

    /// Sends a stored message after the answer: on the delivery queue, or (without one, in
    /// tests) a task. If the queue is full, the worker sends it once its lease runs out.
    package func deliverSoon(_ record: OutboxRecord) {
        afterAnswer { [self] in _ = await deliver(record) }
    }

    /// Runs work after the answer (``AnswerHold``): on the delivery queue, or (without one, in
    /// tests) a task.
    package func afterAnswer(_ job: @escaping DeliveryQueue.Job) {
        AnswerHold.afterAnswer { [deliveries] in
            if let deliveries { deliveries.enqueue(job) } else { Task { await job() } }
        }
    }

    /// One try of a stored message this instance holds the lease on: it is sent and marked
    /// sent, or kept for a later try, or dead-lettered.
    /// - Parameter retrying: `false` when the request waits for this one try and answers its
    ///   failure (the person asks again), so a failed message is removed, not retried.
    @discardableResult
    package func deliver(_ record: OutboxRecord, retrying: Bool = true) async -> MessageDispatch.Outcome {
        let now = clock()
        guard let dispatch = dispatcher(record.channel),
              let sealed = record.sealedPayload, let envelope = OutboxEnvelope(sealed: sealed, id: record.id, kek: kek)
        else {
            let reason = "its content cannot be opened (another key-encryption key?)"
            await settle(record, .failed(reason: reason, permanent: true), retrying: retrying, address: nil, to: "…", now: now)
            return .failed(reason: reason, permanent: true)
        }
        if let expiry = envelope.expiresAt, expiry <= now {
            let outcome = MessageDispatch.Outcome.failed(reason: "its code or link expired before it could be sent", permanent: true)
            await settle(record, outcome, retrying: retrying, address: envelope.address, to: envelope.message.redactedRecipient, now: now)
            return outcome
        }
        let message = envelope.message
        let share: LimitKey? = if case .email(let mail) = message, record.attempts == 0 {
            EmailAddress.domain(of: mail.to).map(LimitKey.mailDomain)
        } else {
            nil
        }
        let outcome = await dispatch.dispatch(
            message, to: message.recipient, purpose: record.purpose, share: share, budgetSpent: envelope.budgetSpent || record.attempts > 0,
            address: envelope.address, now: now
        )
        await settle(record, outcome, retrying: retrying, address: envelope.address, to: message.redactedRecipient, now: now)
        return outcome
    }

    private func dispatcher(_ channel: MessageChannel) -> MessageDispatch? {
        dispatchers.withLockedValue { $0[channel] }
    }

    /// Where a channel's sends are reported.
    func dispatchEvents(_ channel: MessageChannel) -> (any EventSink)? {
        dispatcher(channel)?.events
    }
}
