import Foundation

/// How many sign-in attempts are allowed, and how failures slow an attacker down.
///
/// - Per client address: at most ``addressLimit`` attempts per ``addressWindow``, whatever
///   the account and the outcome.
/// - Per account and source, where the source is a device that signed in to this account
///   before (its device token) or else the client address: from the ``backoffThreshold``th
///   consecutive failure, the next attempt waits ``backoffBase`` seconds, doubling with each
///   further failure up to ``backoffCap``. A success clears the streak; a streak is forgotten
///   ``streakMemory`` after it began.
/// - Per account, from sources without a device token: at most ``accountFailuresPerHour``
///   failures an hour (ASVS 2.2.1). One address cannot reach it alone (its own back-off
///   allows about 17 failures an hour), and the owner's known devices are never held by it.
///
/// Unknown accounts are counted exactly like existing ones, so the limiter says nothing about
/// which accounts exist. Every counter lives in the database, shared by all instances.
public struct AbusePolicy: Sendable, Equatable {
    public var addressLimit = 30
    public var addressWindow: TimeInterval = 5 * 60
    public var backoffThreshold = 5
    public var backoffBase: TimeInterval = 1
    public var backoffCap: TimeInterval = 15 * 60
    public var accountFailuresPerHour = 100
    /// Guest accounts one client address may make per hour (issue 39).
    public var guestsPerAddressPerHour = 30
    public var streakMemory: TimeInterval = 24 * 3600
    /// How long a device token is honoured.
    public var deviceTokenLifetime: TimeInterval = 180 * 24 * 3600

    public init() {}

    /// The wait after `failures` consecutive failures; zero below the threshold.
    package func backoff(afterFailures failures: Int) -> TimeInterval {
        guard failures >= backoffThreshold else { return 0 }
        let doublings = min(failures - backoffThreshold, 30)
        return min(backoffBase * pow(2, Double(doublings)), backoffCap)
    }
}
