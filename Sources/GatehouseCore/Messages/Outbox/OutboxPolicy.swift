import Foundation

/// How the outbox retries, leases and keeps its rows.
public struct OutboxPolicy: Sendable, Equatable {
    /// Tries before a message is dead-lettered.
    public var maximumAttempts = 8
    /// The pause after the first failure; doubled after each later one (with jitter), up to
    /// ``retryCap``. With the defaults the eighth try comes about 20 minutes after the first.
    public var retryBase: TimeInterval = 10
    public var retryCap: TimeInterval = 600
    /// How long an instance holds a message it is sending; a crashed instance's messages are
    /// taken by another (or by it, restarted) once this runs out. Longer than any one send
    /// (the SMTP sender's three tries with their timeouts).
    public var lease: TimeInterval = 120
    /// How often each instance looks for messages that are due.
    public var pollInterval: TimeInterval = 1
    /// How long sent rows are kept (without their content).
    public var sentRetention: TimeInterval = 7 * 86400

    public init() {}

    /// The pause before try `attempts + 1`, after `attempts` failures: exponential, capped, with
    /// jitter (between half and all of it) so messages that failed together spread out.
    package func backoff(afterFailures attempts: Int, jitter: Double = Double.random(in: 0.5...1)) -> TimeInterval {
        let exponential = retryBase * pow(2, Double(max(0, attempts - 1)))
        return min(retryCap, exponential) * jitter
    }
}
