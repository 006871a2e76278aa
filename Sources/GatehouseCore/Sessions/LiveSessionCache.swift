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
public final class LiveSessionCache: Sendable {
    private struct State {
        var live: Bool
        var epoch: UInt64 = 0
        var principals: [String: Principal] = [:]
        var sessionsByUser: [String: Set<String>] = [:]

        /// Empties the cache, so no read in flight can keep what it found.
        mutating func reset(live: Bool) {
            epoch &+= 1
            principals = [:]
            sessionsByUser = [:]
            self.live = live
        }
    }

    private let state: NIOLockedValueBox<State>
    /// Entries kept at most; past it the cache starts again empty.
    package let capacity: Int

    /// Creates a cache.
    /// - Parameters:
    ///   - live: whether it may serve entries at once (SQLite, where this process sees every
    ///     write that matters); `false` until a change feed reports itself running (PostgreSQL).
    ///   - capacity: entries kept at most.
    public init(live: Bool, capacity: Int = 100_000) {
        state = NIOLockedValueBox(State(live: live))
        self.capacity = capacity
    }

    /// The cached principal of a session, if the cache is live and holds it.
    package func principal(sessionID: String) -> Principal? {
        state.withLockedValue { $0.live ? $0.principals[sessionID] : nil }
    }

    /// The invalidation count now; pass it to ``keep(_:readAt:)`` after the read.
    package var epoch: UInt64 { state.withLockedValue(\.epoch) }

    /// Keeps a principal read from the database, unless the cache was invalidated since `epoch`.
    package func keep(_ principal: Principal, readAt epoch: UInt64) {
        state.withLockedValue { state in
            guard state.live, state.epoch == epoch else { return }
            if state.principals.count >= capacity { state.reset(live: true) }
            state.principals[principal.session.id] = principal
            state.sessionsByUser[principal.user.id, default: []].insert(principal.session.id)
        }
    }

    /// Forgets a user's sessions: they ended, or the user changed.
    public func invalidate(userID: String) {
        state.withLockedValue { state in
            state.epoch &+= 1
            for session in state.sessionsByUser.removeValue(forKey: userID) ?? [] { state.principals[session] = nil }
        }
    }

    /// Serves entries again, starting empty (a change feed is running).
    public func resume() {
        state.withLockedValue { $0.reset(live: true) }
    }

    /// Serves nothing until ``resume()`` (a change feed lost its connection).
    public func suspend() {
        state.withLockedValue { $0.reset(live: false) }
    }

    /// Whether entries are served now.
    public var isLive: Bool { state.withLockedValue(\.live) }

    /// Entries held now.
    package var count: Int { state.withLockedValue(\.principals.count) }
}
