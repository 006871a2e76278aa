import Foundation

/// How an ``AuthClient`` behaves around time: margins, budgets and backoff, and its clock.
public struct ClientConfiguration: Sendable {
    /// Refresh when the access token has this many seconds left (default 60).
    public var refreshMargin: TimeInterval = 60
    /// How long launch validation may take before the client reports ``RestoreResult/offline(_:)``
    /// (seed 003: 1 s).
    public var restoreBudget: TimeInterval = 1
    /// The first wait after a refresh failed for network reasons; it doubles up to ``maximumBackoff``.
    public var initialBackoff: TimeInterval = 1
    public var maximumBackoff: TimeInterval = 60
    /// The clock every expiry is measured against. Nothing in the SDK calls `Date()` itself.
    public var now: @Sendable () -> Date = { Date() }

    public init() {}
}
