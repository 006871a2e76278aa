import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import GatehouseSQL
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 20's shared seam for the device list: a session records its device (a label read from
/// the user agent), the address it signed in from, and when it was last used.
@Suite struct SessionDeviceTests {
    @Test(arguments: [
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1", "iPhone · Safari"),
        ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36", "Linux · Chrome"),
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0", "Windows · Edge"),
        ("Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0", "Mac · Firefox"),
        ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36", "Android · Chrome"),
        ("Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0 Mobile/15E148 Safari/604.1", "iPad · Chrome"),
        ("curl/8.5.0", "curl"), ("python-requests/2.32.3", "python-requests"), ("", "Unknown device"), ("\u{7}\u{1}", "Unknown device"),
        ("Bücher-App/2.1", "Bcher-App"), ("\u{3000}curl/8.5.0\u{A0}", "curl"), (" \t ", "Unknown device"),
        ("\u{A0}Mozilla/5.0 (Windows NT 10.0; Win64; x64) Gecko/20100101 Firefox/128.0 ", "Windows · Firefox"),
        ("Mozilla/5.0 (Linux) Édition/1 Chrome/126.0 Safari/537.36", "Linux · Chrome"), ("Mozilla/5.0 (Windows", "Mozilla"), ("\u{7}tab\tbed/1", "tabbed"), (String(repeating: "x", count: 50) + "/1", String(repeating: "x", count: 40)),
    ])
    func I20_aUserAgentBecomesALabelAPersonRecognises(agent: String, label: String) {
        #expect(DeviceLabel.make(userAgent: agent) == label)
    }

    @Test func I20_noUserAgentIsAnUnknownDevice() {
        #expect(DeviceLabel.make(userAgent: nil) == "Unknown device")
    }

    @Test(arguments: RepositoryContractTests.Engine.available)
    func I20_aSessionKeepsItsDeviceAddressAndLastSeenOnEveryEngine(engine: RepositoryContractTests.Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine, instances: 2) { repositories in
            let (ann, identities) = RepositoryContractTests.user("ann@example.com")
            try await repositories[0].createUser(ann, identities: identities, passwordHash: nil)
            let now = RepositoryContractTests.now
            let session = SessionRecord(
                id: "d1", userID: ann.id, createdAt: now, expiresAt: now.addingTimeInterval(3600),
                deviceLabel: "iPhone · Safari", address: "203.0.113.7", lastSeenAt: now
            )
            try await repositories[0].createSession(session, credential: .refreshToken(.init(tokenHash: "d1t", sessionID: "d1", createdAt: now)))
            #expect(try await repositories[1].session(id: "d1") == session)
            try await repositories[1].touchSession(id: "d1", at: now.addingTimeInterval(90))
            let touched = try await repositories[0].sessionWithUser(id: "d1")?.0
            #expect(touched?.lastSeenAt == now.addingTimeInterval(90) && touched?.deviceLabel == "iPhone · Safari")
        }
    }

    @Test func I20_signInRecordsTheDeviceAndARefreshMovesLastSeenAtMostOnceAMinute() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        let agent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36"
        try await fixture.test({ $0.trustedProxies = try! TrustedProxies(["127.0.0.0/8"]) }, mode: .live) { client in
            let login = try await client.login(Fixture.email, Fixture.password, headers: [.userAgent: agent, .xForwardedFor: "198.51.100.23"])
            let grant = try login.decoded(TokenGrant.self)
            var refreshToken = grant.refreshToken
            fixture.clock.advance(by: 30)
            refreshToken = try await client.refresh(refreshToken).decoded(TokenGrant.self).refreshToken
            fixture.clock.advance(by: 45)
            _ = try await client.refresh(refreshToken).decoded(TokenGrant.self)
            let rows = try await fixture.storedText(["sessions"])
            #expect(rows.contains("Linux · Chrome") && rows.contains("198.51.100.23"))
        }
        try await Storage.with(try DatabaseLocation(fixture.databasePath), logger: .init(label: "t")) { storage in
            let session = try #require(try await storage.repository.database.select().column("id").from("sessions").first(decoding: [String: String].self)?["id"])
            let record = try #require(try await storage.repository.session(id: session))
            #expect(record.deviceLabel == "Linux · Chrome" && record.address == "198.51.100.23")
            // Signed in at t, refreshed at t+30 (too soon to write) and t+75 (written).
            #expect(record.lastSeenAt == record.createdAt.addingTimeInterval(75))
        }
    }
}
