import Foundation
import Logging
import Metrics

extension MessageOutbox {
    /// What one try's outcome does to the row: sent; tried again later with a growing pause; or
    /// dead-lettered (a permanent refusal, the last try, the budget), which is logged, counted
    /// and audited. A try nobody will retry (``deliver(_:retrying:)``) is removed instead.
    /// - Parameter to: the recipient, redacted, for the log.
    func settle(_ record: OutboxRecord, _ outcome: MessageDispatch.Outcome, retrying: Bool, address: String?, to: String, now: Date) async {
        let result: String
        do {
            switch outcome {
            case .sent:
                try await repository.markMessageSent(id: record.id, at: now)
                result = "sent"
            case .overBudget where !retrying, .failed where !retrying:
                try await repository.deleteMessage(id: record.id)
                result = "withdrawn"
            case .overBudget:
                // Already reported as `dropped` by the send step.
                try await deadLetter(record, reason: "over the hourly budget", address: address, to: to, audited: false, now: now)
                result = "dead"
            case .failed(let reason, let permanent):
                let attempts = record.attempts + 1
                if permanent || attempts >= policy.maximumAttempts {
                    try await deadLetter(record, reason: reason, attempts: attempts, address: address, to: to, now: now)
                    result = "dead"
                } else {
                    let next = now.addingTimeInterval(policy.backoff(afterFailures: attempts))
                    try await repository.retryMessageLater(id: record.id, attempts: attempts, at: next, error: reason)
                    logger.warning("Message not sent; will try again", metadata: [
                        "outbox.id": "\(record.id)", "channel": "\(record.channel.rawValue)", "to": "\(to)", "attempt": "\(attempts)",
                        "error": "\(reason)",
                    ])
                    result = "retry"
                }
            }
        } catch {
            // The row keeps its lease and is tried again once it runs out.
            logger.error("Outbox row not updated", metadata: ["outbox.id": "\(record.id)", "error": "\(error)"])
            result = "unrecorded"
        }
        Counter(label: "gatehouse_outbox_sends_total", dimensions: [("channel", record.channel.rawValue), ("result", result)], factory: metrics)
            .increment()
    }

    private func deadLetter(
        _ record: OutboxRecord, reason: String, attempts: Int? = nil, address: String?, to: String, audited: Bool = true, now: Date
    ) async throws {
        try await repository.deadLetterMessage(id: record.id, attempts: attempts ?? record.attempts, error: reason)
        logger.error("Message dead-lettered; `gatehouse outbox retry` sends it again", metadata: [
            "outbox.id": "\(record.id)", "channel": "\(record.channel.rawValue)", "purpose": "\(record.purpose.rawValue)", "to": "\(to)",
            "error": "\(reason)",
        ])
        guard audited else { return }
        dispatchEvents(record.channel)?.record(
            .messageSent(account: record.recipient, channel: record.channel, purpose: record.purpose, result: .deadLettered),
            at: now, address: address, device: nil
        )
    }
}
