import Foundation

/// Counters that limit attempts, shared by every server instance on the database.
///
/// A counter is a key, the start of its current window, a count and the time of its last hit.
/// ``hit(_:window:at:)`` is one atomic statement, so concurrent requests never lose a count.
public protocol ThrottleRepository: Sendable {
    /// Counts one event; a window older than `window` seconds starts over at 1.
    func hit(_ key: String, window: TimeInterval, at: Date) async throws -> ThrottleCounter
    /// The states of the counters that exist among `keys`, without counting, in one read.
    func counters(_ keys: [String]) async throws -> [String: ThrottleCounter]
    /// Forgets a counter (a successful sign-in clears its failure streak); returns whether it existed.
    @discardableResult
    func clear(_ key: String) async throws -> Bool
    /// Forgets every counter whose key starts with `prefix` (a reset clears an account's
    /// failure streaks from every source); returns how many.
    @discardableResult
    func clear(prefix: String) async throws -> Int
    /// Removes counters not hit since `before`; returns how many.
    func purge(before: Date) async throws -> Int
}

/// One counter's state.
public struct ThrottleCounter: Sendable, Equatable {
    public var windowStart: Date
    public var count: Int
    public var lastHit: Date

    public init(windowStart: Date, count: Int, lastHit: Date) {
        self.windowStart = windowStart
        self.count = count
        self.lastHit = lastHit
    }
}

/// Server-wide secrets every instance must share (HMAC keys), created once, never replaced.
public protocol SecretRepository: Sendable {
    /// The secret named `name`, storing `candidate` first if there is none yet.
    func secret(_ name: String, orInsert candidate: Data) async throws -> Data
}
