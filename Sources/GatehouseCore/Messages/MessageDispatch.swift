import Foundation
import Logging
import Metrics

/// The one outgoing-message step every channel shares: spend the hourly budget, hand the
/// message to the sender, count the result, report it to the audit log.
///
/// Phone codes and account mail differ only in what they do with the outcome (a code that could
/// not be sent is deleted and answered 503; a mail is only logged): the step itself is here once.
package struct MessageDispatch: Sendable {
    /// What happened to one message.
    package enum Outcome: Sendable, Equatable {
        case sent
        /// The hourly budget was spent; nothing was sent. Seconds until the budget renews.
        case overBudget(retryAfter: Int)
        /// The sender failed; the reason is safe to log (never the message's content).
        /// `permanent` when the provider refused it for good (trying again cannot help).
        case failed(reason: String, permanent: Bool)
    }

    package let channel: MessageChannel
    package let throttles: any ThrottleRepository
    /// The service-wide counter this channel's sends are spent from; `nil` for none (the
    /// audit webhook, whose batches the server makes itself).
    package let budget: LimitKey?
    package let perHour: Int
    /// How a message the budget stopped is counted: mail counts it `dropped` (nobody waits for
    /// it), SMS `failed` (its code is deleted and a new one may be asked for at once).
    package let overBudgetResult: MessageResult
    package let sender: (any MessageSender)?
    /// Keyed references name recipients in audit rows, the same the sign-in limits use.
    package let references: AccountKeys
    package let logger: Logger
    package var metrics: any MetricsFactory = MetricsSystem.factory
    package var events: (any EventSink)?
    /// What one share (a recipient domain) may take of the hourly budget; `Int.max` for no shares.
    package var sharePerHour = Int.max

    package init(
        channel: MessageChannel, throttles: any ThrottleRepository, budget: LimitKey?, perHour: Int, overBudgetResult: MessageResult,
        sender: (any MessageSender)?, references: AccountKeys, logger: Logger
    ) {
        self.overBudgetResult = overBudgetResult
        self.channel = channel
        self.throttles = throttles
        self.budget = budget
        self.perHour = perHour
        self.sender = sender
        self.references = references
        self.logger = logger
    }

    /// Counts one message against the hourly budget: `nil` when it may go, else the wait.
    package func spendBudget(now: Date) async throws -> Int? {
        guard let budget else { return nil }
        let counter = try await throttles.hit(budget, window: 3600, at: now)
        guard counter.count > perHour else { return nil }
        logger.warning("Message budget for this hour is spent; a message was not sent", metadata: [
            "channel": "\(channel.rawValue)", "budget": "\(perHour)",
        ])
        return counter.wait(window: 3600, now: now)
    }

    /// Counts one message against its share of the hourly budget: `nil` when it may go, else the wait.
    package func spendShare(_ share: LimitKey, now: Date) async throws -> Int? {
        let counter = try await throttles.hit(share, window: 3600, at: now)
        guard counter.count > sharePerHour else { return nil }
        if counter.count == sharePerHour + 1 {
            logger.warning("One share of the message budget is spent; its messages are not sent this hour", metadata: [
                "channel": "\(channel.rawValue)", "limit": "\(share.kind.rawValue)", "share": "\(sharePerHour)",
            ])
        }
        Counter(label: "gatehouse_throttled_total", dimensions: [("limit", share.kind.rawValue)], factory: metrics).increment()
        return counter.wait(window: 3600, now: now)
    }

    /// Sends one message to `recipient` (the address or number its reference is made from):
    /// its share of the budget, the budget (unless already spent), sender, count, report.
    /// - Parameter address: the client address whose request caused it, for the audit row.
    package func dispatch(
        _ message: OutgoingMessage, to recipient: String, purpose: MessagePurpose, share: LimitKey? = nil, budgetSpent: Bool = false,
        address: String? = nil, now: Date
    ) async -> Outcome {
        let outcome: Outcome
        do {
            if let share, let wait = try await spendShare(share, now: now) {
                outcome = .overBudget(retryAfter: wait)
            } else if !budgetSpent, let wait = try await spendBudget(now: now) {
                outcome = .overBudget(retryAfter: wait)
            } else {
                guard let sender else { throw DeliveryError("no \(channel.rawValue) sender is configured", permanent: true) }
                try await sender.send(message)
                outcome = .sent
            }
        } catch {
            let refusal = error as? DeliveryError
            outcome = .failed(reason: refusal?.reason ?? String(describing: type(of: error)), permanent: refusal?.permanent ?? false)
        }
        let result: MessageResult = switch outcome {
        case .sent: .sent
        case .overBudget: overBudgetResult
        case .failed: .failed
        }
        Counter(label: "gatehouse_messages_total", dimensions: [("channel", channel.rawValue), ("result", result.rawValue)], factory: metrics)
            .increment()
        events?.record(
            .messageSent(account: references.reference(for: recipient), channel: channel, purpose: purpose, result: result),
            at: now, address: address, device: nil
        )
        return outcome
    }
}
