import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import GatehouseServer
import GatehouseSQL
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// Issue 24's audit log: every security event in the database on both engines, written off the
/// request path and completely by a clean shutdown, with nothing secret in it.
@Suite struct AuditLogTests {
    /// The entries the fixture's server wrote, oldest first.
    static func entries(_ fixture: Fixture, _ query: AuditQuery = AuditQuery()) async throws -> [AuditEntry] {
        try await Storage.with(try DatabaseLocation(fixture.databasePath), logger: Logger(label: "test")) { storage in
            try await storage.repository.auditEntries(query).reversed()
        }
    }

    @Test func I24_scriptedSignInsLeaveTheirEntriesAfterACleanShutdownWithNothingSecret() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        let iPhone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
        let grant = try await fixture.test({
            $0.trustedProxies = try! TrustedProxies(["127.0.0.0/8"])
            $0.abuse.addressLimit = 4
        }, mode: .live) { client -> TokenGrant in
            let from: HTTPFields = [.userAgent: iPhone, .xForwardedFor: "198.51.100.7"]
            #expect(try await client.login(Fixture.email, "wrong-password", headers: from).status == .unauthorized)
            #expect(try await client.login("nobody@example.com", "wrong-password", headers: from).status == .unauthorized)
            let response = try await client.login(Fixture.email, Fixture.password, headers: from)
            let grant = try response.decoded(TokenGrant.self)
            #expect(try await client.logout(grant.accessToken).status == .noContent)
            for _ in 0..<2 { _ = try await client.login(Fixture.email, "wrong-password", headers: from) }
            return grant
        }
        // The server has stopped: everything it recorded is written.
        let entries = try await Self.entries(fixture)
        try #require(entries.map(\.type) == [
            "sign_in.refused", "sign_in.refused", "sign_in.succeeded", "session.ended", "sign_in.refused", "sign_in.throttled",
        ])
        let user = try #require(entries[2].userID)
        // A refusal names no account, known or not: only keyed references, the same one for the same email.
        #expect(entries[0].userID == nil && entries[0].account?.count == 32 && entries[0].account == entries[4].account)
        #expect(entries[1].account != entries[0].account && entries[1].details == ["method": "password", "reason": "invalid_credentials"])
        #expect(entries[2].details["method"] == "password" && entries[2].details["session_id"] != nil)
        #expect(entries[3].details["reason"] == "logout_local" && entries[3].userID == user)
        #expect(entries[5].details == ["limit": "address_limit"] && entries[5].account == entries[0].account)
        for entry in entries {
            #expect(entry.address == "198.51.100.7" && entry.device == "iPhone · Safari", "\(entry)")
        }
        let stored = try await fixture.storedText(["audit_events"])
        for secret in [Fixture.password, "wrong-password", Fixture.email, "nobody@example.com", grant.accessToken, grant.refreshToken] {
            #expect(!stored.contains(secret), "the audit log holds a secret or an identifier")
        }
    }

    @Test func I24_aLockedAccountsRefusalNamesTheAccountItProved() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.withAdministration { try await $0.setLocked(true, email: Fixture.email) }
        try await fixture.test { client in
            let response = try await client.login(Fixture.email, Fixture.password)
            #expect(response.status == .forbidden)
        }
        let refused = try #require(try await Self.entries(fixture, AuditQuery(types: ["sign_in.refused"])).first)
        let user = try await fixture.withAdministration { try await $0.account(.email(Fixture.email)) }
        #expect(refused.userID == user.id && refused.details["reason"] == "account_locked")
    }

    @Test func I24_withTheAuditLogOffNothingIsWritten() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test({ $0.audit.enabled = false }) { client in
            let grant = try await client.grant()
            #expect(!grant.accessToken.isEmpty)
        }
        #expect(try await Self.entries(fixture, AuditQuery(types: ["sign_in."])).isEmpty)
    }

    @Test(arguments: RepositoryContractTests.Engine.available)
    func I24_entriesAreFoundByAccountTypeAndTimeAndPrunedOnEveryEngine(engine: RepositoryContractTests.Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine, instances: 2) { repositories in
            let now = RepositoryContractTests.now
            func entry(_ minutes: Double, _ type: String, user: String? = nil, account: String? = nil) -> AuditEntry {
                AuditEntry(at: now.addingTimeInterval(minutes * 60), type: type, userID: user, account: account, details: ["k": "v"])
            }
            // Two instances write batches; every entry is kept with its own number.
            try await repositories[0].appendAuditEntries([entry(0, "sign_in.refused", account: "ref-ann"), entry(1, "sign_in.succeeded", user: "ann")])
            try await repositories[1].appendAuditEntries([entry(2, "admin.ban", user: "ann"), entry(3, "admin_x.other", user: "bob")])
            try await repositories[0].appendAuditEntries((0..<600).map { entry(4 + Double($0) / 1000, "session.ended", user: "carl") })

            let ann = try await repositories[1].auditEntries(AuditQuery(userID: "ann", accounts: ["ref-ann"]))
            #expect(ann.map(\.type) == ["admin.ban", "sign_in.succeeded", "sign_in.refused"])
            #expect(ann.allSatisfy { $0.details == ["k": "v"] && $0.id != nil })
            // A prefix is exact: `admin.` does not take `admin_x.`.
            #expect(try await repositories[0].auditEntries(AuditQuery(types: ["admin."])).map(\.type) == ["admin.ban"])
            let recent = try await repositories[0].auditEntries(AuditQuery(since: now.addingTimeInterval(150), types: ["admin.", "admin_x.other"]))
            #expect(recent.map(\.type) == ["admin_x.other"])
            #expect(try await repositories[1].auditEntries(AuditQuery(userID: "carl", limit: 5)).count == 5)
            #expect(try await repositories[1].pruneAuditEntries(before: now.addingTimeInterval(150)) == 3)
            #expect(try await repositories[0].auditEntries(AuditQuery(limit: 10_000)).count == 601)
        }
    }

    @Test(arguments: RepositoryContractTests.Engine.available)
    func I24_theLogWritesWhatGathersInOneBatchAndPrunesPastItsRetention(engine: RepositoryContractTests.Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine) { repositories in
            let now = RepositoryContractTests.now
            let log = AuditLog(repository: repositories[0], retention: 3600, clock: { now }, logger: Logger(label: "test"))
            log.record(.signedUp(userID: "old"), at: now.addingTimeInterval(-7200), address: nil, device: nil)
            for index in 0..<50 {
                log.record(.emailVerified(userID: "u\(index)"), at: now, address: "192.0.2.1", device: "curl")
            }
            #expect(log.pending == 51)
            try await log.flush()
            #expect(log.pending == 0)
            let written = try await repositories[0].auditEntries(AuditQuery(limit: 100))
            #expect(written.count == 51 && written.first?.userID == "u49" && written.last?.type == "account.signed_up")
            #expect(try await log.prune() == 1)
            #expect(try await repositories[0].auditEntries(AuditQuery(types: ["account.signed_up"])).isEmpty)
        }
    }

    @Test(arguments: RepositoryContractTests.Engine.available)
    func I24_aLoneEntryIsWrittenAtOnceAndEntriesThatArriveWhileTheLogRestsShareOneWrite(engine: RepositoryContractTests.Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine) { repositories in
            let now = RepositoryContractTests.now
            let writes = CountingAuditRepository(repositories[0])
            let log = AuditLog(repository: writes, pause: .milliseconds(400), clock: { now }, logger: Logger(label: "test"))
            let running = Task { try await log.run() }
            defer { running.cancel() }
            log.record(.signedUp(userID: "first"), at: now, address: nil, device: nil)
            try await waitUntil { !writes.batches.isEmpty }
            #expect(writes.batches == [1], "a lone entry does not wait for company")
            for index in 0..<30 {
                log.record(.emailVerified(userID: "u\(index)"), at: now, address: nil, device: nil)
            }
            try await waitUntil { writes.batches.count >= 2 }
            #expect(writes.batches == [1, 30], "the thirty recorded while the log rested went in one transaction")
            #expect(try await repositories[0].auditEntries(AuditQuery(limit: 100)).count == 31)
        }
    }

    @Test func I24_everyEventBecomesAnEntryWithItsFacts() {
        let now = Date(timeIntervalSince1970: 0)
        let cases: [(SecurityEvent, String, [String: String])] = [
            (.signInThrottled(account: "r", limit: .backoff), "sign_in.throttled", ["limit": "backoff"]),
            (.messageSent(account: "r", channel: .sms, purpose: .code, result: .sent), "message.sent", ["channel": "sms", "purpose": "code", "result": "sent"]),
            (.identityLinked(userID: "u", provider: .google), "identity.linked", ["provider": "google"]),
            (.identityUnlinked(userID: "u", provider: .google), "identity.unlinked", ["provider": "google"]),
            (.passwordChanged(userID: "u", method: .reset), "password.changed", ["method": "reset"]),
            (.passkeyAdded(userID: "u", passkeyID: "p"), "passkey.added", ["passkey_id": "p"]),
            (.passkeyRemoved(userID: "u", passkeyID: "p"), "passkey.removed", ["passkey_id": "p"]),
            (.sessionEnded(userID: "u", sessionID: "s", reason: .refreshTokenReused), "session.refresh_token_reused", ["reason": "refresh_token_reused", "session_id": "s"]),
            (.administered(actor: .serviceRole, action: .ban, userID: "u"), "admin.ban", [:]),
        ]
        for (event, type, details) in cases {
            let entry = AuditEntry(event, at: now, address: nil, device: nil)
            #expect(entry.type == type && entry.details == details, "\(event)")
        }
        #expect(AuditEntry(.administered(actor: .serviceRole, action: .ban, userID: "u"), at: now, address: nil, device: nil).actor == "service_role")
    }
}

/// The real repository, with a count of the entries each write stored.
final class CountingAuditRepository: AuditRepository, @unchecked Sendable {
    private let base: any AuditRepository
    private let lock = NSLock()
    private var sizes: [Int] = []

    init(_ base: any AuditRepository) { self.base = base }

    /// The number of entries of each write, in order.
    var batches: [Int] { lock.withLock { sizes } }

    func appendAuditEntries(_ entries: [AuditEntry], queueing export: OutboxRecord?) async throws {
        try await base.appendAuditEntries(entries, queueing: export)
        lock.withLock { sizes.append(entries.count) }
    }

    func auditEntries(_ query: AuditQuery) async throws -> [AuditEntry] { try await base.auditEntries(query) }
    func pruneAuditEntries(before date: Date) async throws -> Int { try await base.pruneAuditEntries(before: date) }
}
