import Foundation
import Logging
import Metrics

/// Applies the ``AbusePolicy`` to sign-in attempts, before any password is hashed.
///
/// ``admit(_:from:)`` counts the attempt against the client's address and checks the
/// account's back-off; it throws ``GatehouseError/rateLimited(retryAfter:)`` with the longest
/// wait that applies. The caller reports the outcome with ``recordFailure(_:now:)``, or with
/// ``success(_:now:)`` (a sign-in, whose session stores it) or ``recordSuccess(_:)``.
package struct AttemptLimiter: Sendable {
    package let throttles: any ThrottleRepository
    package let policy: AbusePolicy
    package let keys: AccountKeys
    package let logger: Logger
    /// Where a throttled sign-in is reported (the audit log).
    package var events: (any EventSink)?

    /// One admitted attempt: the counters its outcome updates.
    package struct Attempt: Sendable {
        package let account: String
        package let client: ClientInfo
        /// Set when the client showed a device token issued for this account.
        package let device: String?
        /// Whether this source had a failure streak when the attempt was admitted.
        package var hadStreak = false

        package var streakKey: String { LimitKey.failureStreak(account: account, device: device, address: client.address).storageKey }
        package var accountKey: String { LimitKey.accountFailures(account: account).storageKey }
    }

    /// Counts an attempt and refuses it when any limit is reached.
    /// - Parameters:
    ///   - identifier: the normalised identifier the grant claims, existing or not.
    ///   - client: who asks.
    ///   - now: the current time.
    package func admit(_ identifier: String, from client: ClientInfo, now: Date) async throws -> Attempt {
        let account = keys.reference(for: identifier)
        var attempt = Attempt(account: account, client: client, device: keys.device(in: client.deviceToken, for: account, now: now))
        var waits: [(LimitKind, TimeInterval)] = []
        let address = try await throttles.hit(.signInAddress(client.address), window: policy.addressWindow, at: now)
        if address.count > policy.addressLimit {
            waits.append((.addressLimit, address.windowStart.addingTimeInterval(policy.addressWindow).timeIntervalSince(now)))
        }
        let counters = try await throttles.counters([attempt.streakKey, attempt.accountKey])
        attempt.hadStreak = counters[attempt.streakKey] != nil
        if let streak = counters[attempt.streakKey], now.timeIntervalSince(streak.windowStart) < policy.streakMemory {
            let until = streak.lastHit.addingTimeInterval(policy.backoff(afterFailures: streak.count))
            if until > now { waits.append((.backoff, until.timeIntervalSince(now))) }
        }
        if attempt.device == nil, let hourly = counters[attempt.accountKey],
           now.timeIntervalSince(hourly.windowStart) < 3600, hourly.count >= policy.accountFailuresPerHour {
            waits.append((.accountLimit, hourly.windowStart.addingTimeInterval(3600).timeIntervalSince(now)))
        }
        if let longest = waits.max(by: { $0.1 < $1.1 }) {
            let seconds = max(1, Int(longest.1.rounded(.up)))
            logger.notice("Sign-in throttled", metadata: [
                "reason": "\(longest.0.rawValue)", "account.ref": "\(account)", "client.address": "\(client.address)",
                "retry_after": "\(seconds)",
            ])
            events?.record(
                .signInThrottled(account: account, limit: longest.0), at: now, address: client.address,
                device: DeviceLabel.make(userAgent: client.userAgent)
            )
            Counter(label: "gatehouse_throttled_total", dimensions: [("limit", longest.0.rawValue)]).increment()
            throw GatehouseError.rateLimited(retryAfter: seconds)
        }
        if Int.random(in: 0..<512) == 0 {
            _ = try? await throttles.purge(before: now.addingTimeInterval(-max(policy.streakMemory, 3600)))
        }
        return attempt
    }

    /// Counts a failed attempt against the account's streak and, for unknown devices, its hourly budget.
    package func recordFailure(_ attempt: Attempt, now: Date) async throws {
        let streak = try await throttles.hit(attempt.streakKey, window: policy.streakMemory, at: now)
        if attempt.device == nil {
            let hourly = try await throttles.hit(attempt.accountKey, window: 3600, at: now)
            if hourly.count == policy.accountFailuresPerHour {
                logger.warning("Account blocked for unknown devices", metadata: [
                    "account.ref": "\(attempt.account)", "failures": "\(hourly.count)",
                ])
            }
        }
        if streak.count == policy.backoffThreshold {
            logger.warning("Sign-in back-off started", metadata: [
                "account.ref": "\(attempt.account)", "client.address": "\(attempt.client.address)",
            ])
        }
    }

    /// What a sign-in's success changes: a new device token, and the end of the source's
    /// failure streak as a write for the session's transaction (``SignInWrite``).
    package func success(_ attempt: Attempt, now: Date) -> (deviceToken: String, writes: [SignInWrite]) {
        let token = keys.deviceToken(for: attempt.account, expires: now.addingTimeInterval(policy.deviceTokenLifetime))
        guard attempt.hadStreak else { return (token, []) }
        logger.info("Sign-in back-off cleared", metadata: ["account.ref": "\(attempt.account)"])
        return (token, [.failureStreakCleared(key: attempt.streakKey)])
    }

    /// Ends at once the failure streak of a source that proved its password outside a sign-in
    /// (before a sensitive change), which opens no session to carry the write.
    package func recordSuccess(_ attempt: Attempt) async throws {
        if attempt.hadStreak, try await throttles.clear(attempt.streakKey) {
            logger.info("Sign-in back-off cleared", metadata: ["account.ref": "\(attempt.account)"])
        }
    }
}
