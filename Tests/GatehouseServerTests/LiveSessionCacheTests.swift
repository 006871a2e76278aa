@testable import GatehouseCore
import Foundation
import NIOConcurrencyHelpers
import GatehouseModel
import Testing

/// The in-memory live sessions: what is kept, what empties them, and when they serve nothing.
@Suite struct LiveSessionCacheTests {
    static func principal(_ session: String, user: String = "u1") -> Principal {
        let now = Date(timeIntervalSince1970: 1_000)
        return Principal(
            user: UserRecord(id: user, email: "\(user)@example.com", name: PersonName(full: "User"), createdAt: now),
            session: SessionRecord(id: session, userID: user, createdAt: now, expiresAt: now.addingTimeInterval(3600))
        )
    }

    @Test func aKeptPrincipalIsServedUntilItsUserIsInvalidated() {
        let cache = LiveSessionCache(live: true)
        cache.keep(Self.principal("s1"), readAt: cache.epoch)
        cache.keep(Self.principal("s2"), readAt: cache.epoch)
        cache.keep(Self.principal("s3", user: "u2"), readAt: cache.epoch)
        #expect(cache.principal(sessionID: "s1")?.session.id == "s1")
        cache.invalidate(userID: "u1")
        #expect(cache.principal(sessionID: "s1") == nil && cache.principal(sessionID: "s2") == nil)
        #expect(cache.principal(sessionID: "s3")?.user.id == "u2", "another user's session stays")
    }

    /// A read that began before an invalidation may hold the state from before it: not kept.
    @Test func aReadThatRacedAnInvalidationIsNotKept() {
        let cache = LiveSessionCache(live: true)
        let before = cache.epoch
        cache.invalidate(userID: "u1")
        cache.keep(Self.principal("s1"), readAt: before)
        #expect(cache.principal(sessionID: "s1") == nil && cache.count == 0)
        cache.keep(Self.principal("s1"), readAt: cache.epoch)
        #expect(cache.count == 1)
    }

    /// While the change feed is down nothing is served or kept, so every request reads the
    /// database; resuming starts empty, since changes may have been missed meanwhile.
    @Test func aSuspendedCacheServesNothingAndResumesEmpty() {
        let cache = LiveSessionCache(live: true)
        cache.keep(Self.principal("s1"), readAt: cache.epoch)
        cache.suspend()
        #expect(!cache.isLive && cache.principal(sessionID: "s1") == nil)
        cache.keep(Self.principal("s2"), readAt: cache.epoch)
        #expect(cache.count == 0)
        cache.resume()
        #expect(cache.isLive && cache.count == 0)
        cache.keep(Self.principal("s2"), readAt: cache.epoch)
        #expect(cache.principal(sessionID: "s2") != nil)
    }

    @Test func aPostgreSQLCacheWaitsForItsListener() {
        let cache = LiveSessionCache(live: false)
        cache.keep(Self.principal("s1"), readAt: cache.epoch)
        #expect(cache.principal(sessionID: "s1") == nil)
    }

    @Test func aFullCacheStartsAgainEmpty() {
        let cache = LiveSessionCache(live: true, capacity: 2)
        for index in 0..<3 { cache.keep(Self.principal("s\(index)"), readAt: cache.epoch) }
        #expect(cache.count == 1 && cache.principal(sessionID: "s2") != nil)
    }

    /// Issue 35, point 2: a listener that is connected but silent (its connection stalled) is
    /// not trusted: past the heartbeat window the cache serves nothing, and a heartbeat (the
    /// listener's own notification coming back) lets it serve again.
    @Test func S2_withoutAHeartbeatInItsWindowTheCacheServesNothing() {
        let clock = NanoClock()
        let cache = LiveSessionCache(live: false, heartbeatWindow: .seconds(3), clock: clock.read)
        cache.resume()
        cache.keep(Self.principal("s1"), readAt: cache.epoch)
        clock.advance(.milliseconds(2_900))
        #expect(cache.principal(sessionID: "s1") != nil)
        cache.heartbeat()
        clock.advance(.milliseconds(2_900))
        #expect(cache.principal(sessionID: "s1") != nil, "the heartbeat renewed the window")
        clock.advance(.milliseconds(200))
        #expect(cache.principal(sessionID: "s1") == nil && !cache.isLive, "no heartbeat for 3 s: nothing is served")
        cache.heartbeat()
        #expect(cache.principal(sessionID: "s1") != nil)
    }

    /// Issue 35, point 2: whatever the feed says, an entry is served at most `maximumAge` after its read.
    @Test func S2_anEntryIsServedAtMostItsMaximumAgeAfterItsRead() {
        let clock = NanoClock()
        let cache = LiveSessionCache(live: true, maximumAge: .seconds(60), clock: clock.read)
        cache.keep(Self.principal("s1"), readAt: cache.epoch)
        clock.advance(.seconds(59))
        #expect(cache.principal(sessionID: "s1") != nil)
        clock.advance(.seconds(2))
        #expect(cache.principal(sessionID: "s1") == nil && cache.count == 0)
    }
}

/// A monotonic clock the test moves.
final class NanoClock: Sendable {
    private let now = NIOLockedValueBox<UInt64>(1_000_000_000)
    var read: @Sendable () -> UInt64 { { [now] in now.withLockedValue { $0 } } }
    func advance(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        now.withLockedValue { $0 += UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000) }
    }
}
