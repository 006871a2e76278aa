import Foundation
import NIOConcurrencyHelpers

/// Live sessions kept in memory, so a valid access token costs no database read.
///
/// Only what a read found live is kept, and liveness is judged again on every hit against the
/// current time (expiry, a lock's end). Anything that can end a session or change what a
/// request sees of its user empties that user's entries: the SQL repository does so after
/// each such write of this process, and a change feed does so for writes of other processes
/// (PostgreSQL's `LISTEN/NOTIFY`, SQLite's change table). While that feed is down the cache
/// is suspended and every request reads the database, so no instance can serve a revoked
/// session from memory because it missed a notification.
///
/// A read that raced an invalidation is not kept: ``epoch`` is taken before the read and
/// ``keep(_:readAt:)`` drops the result if any invalidation happened since.
///
/// A feed that is connected but silent (a stalled connection a NAT or proxy dropped without a
/// word) must not be trusted either: a cache made with a ``heartbeatWindow`` serves only until
/// that long after the feed's last sign of life (``heartbeat()``, ``resume()``), and no entry
/// is served longer than ``maximumAge`` after it was read, whatever the feed says.
public final class LiveSessionCache: Sendable {
    private struct Entry {
        var principal: Principal
        /// When it was read, on the cache's clock (nanoseconds).
        var readAt: UInt64
    }

    private struct State {
        var live: Bool
        var epoch: UInt64 = 0
        var entries: [String: Entry] = [:]
        var sessionsByUser: [String: Set<String>] = [:]
        /// Until when entries may be served without a new heartbeat; `UInt64.max` without a window.
        var servingUntil: UInt64 = .max

        /// Empties the cache, so no read in flight can keep what it found.
        mutating func reset(live: Bool) {
            epoch &+= 1
            entries = [:]
            sessionsByUser = [:]
            self.live = live
        }
    }

    private let state: NIOLockedValueBox<State>
    /// Entries kept at most; past it the cache starts again empty.
    package let capacity: Int
    /// How long after the feed's last heartbeat entries are still served; `nil` for no
    /// heartbeat (SQLite, where the feed is this process's own poll).
    package let heartbeatWindow: Duration?
    /// How long after its read an entry is served at most.
    package let maximumAge: Duration
    /// Monotonic nanoseconds; a test may drive it.
    private let clock: @Sendable () -> UInt64

    /// Creates a cache.
    /// - Parameters:
    ///   - live: whether it may serve entries at once (SQLite, where this process sees every
    ///     write that matters); `false` until a change feed reports itself running (PostgreSQL).
    ///   - capacity: entries kept at most.
    ///   - heartbeatWindow: how long entries are served after the feed's last sign of life;
    ///     `nil` when the feed needs none.
    ///   - maximumAge: how long an entry is served after its read, at most.
    ///   - clock: monotonic nanoseconds.
    public init(
        live: Bool, capacity: Int = 100_000, heartbeatWindow: Duration? = nil, maximumAge: Duration = .seconds(60),
        clock: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }
    ) {
        self.capacity = capacity
        self.heartbeatWindow = heartbeatWindow
        self.maximumAge = maximumAge
        self.clock = clock
        var initial = State(live: live)
        if let heartbeatWindow { initial.servingUntil = clock() &+ heartbeatWindow.nanoseconds }
        state = NIOLockedValueBox(initial)
    }

    /// The cached principal of a session, if the cache is live, its feed was heard from
    /// lately, and the entry is young enough.
    package func principal(sessionID: String) -> Principal? {
        let now = clock()
        return state.withLockedValue { state in
            guard state.live, now < state.servingUntil, let entry = state.entries[sessionID] else { return nil }
            guard now &- entry.readAt < maximumAge.nanoseconds else {
                state.entries[sessionID] = nil
                return nil
            }
            return entry.principal
        }
    }

    /// The invalidation count now; pass it to ``keep(_:readAt:)`` after the read.
    package var epoch: UInt64 { state.withLockedValue(\.epoch) }

    /// Keeps a principal read from the database, unless the cache was invalidated since `epoch`.
    package func keep(_ principal: Principal, readAt epoch: UInt64) {
        let now = clock()
        state.withLockedValue { state in
            guard state.live, state.epoch == epoch else { return }
            if state.entries.count >= capacity { state.reset(live: true) }
            state.entries[principal.session.id] = Entry(principal: principal, readAt: now)
            state.sessionsByUser[principal.user.id, default: []].insert(principal.session.id)
        }
    }

    /// Forgets a user's sessions: they ended, or the user changed.
    public func invalidate(userID: String) {
        state.withLockedValue { state in
            state.epoch &+= 1
            for session in state.sessionsByUser.removeValue(forKey: userID) ?? [] { state.entries[session] = nil }
        }
    }

    /// Serves entries again, starting empty (a change feed is running).
    public func resume() {
        let now = clock()
        state.withLockedValue { state in
            state.reset(live: true)
            if let heartbeatWindow { state.servingUntil = now &+ heartbeatWindow.nanoseconds }
        }
    }

    /// The feed is alive (its own heartbeat came back through it): entries may be served for
    /// another ``heartbeatWindow``.
    public func heartbeat() {
        guard let heartbeatWindow else { return }
        let until = clock() &+ heartbeatWindow.nanoseconds
        state.withLockedValue { $0.servingUntil = max($0.servingUntil, until) }
    }

    /// Serves nothing until ``resume()`` (a change feed lost its connection).
    public func suspend() {
        state.withLockedValue { $0.reset(live: false) }
    }

    /// Whether entries are served now.
    public var isLive: Bool {
        let now = clock()
        return state.withLockedValue { $0.live && now < $0.servingUntil }
    }

    /// Entries held now.
    package var count: Int { state.withLockedValue(\.entries.count) }
}

extension Duration {
    /// The whole nanoseconds of a non-negative duration.
    fileprivate var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        return UInt64(max(0, seconds)) &* 1_000_000_000 &+ UInt64(max(0, attoseconds) / 1_000_000_000)
    }
}
