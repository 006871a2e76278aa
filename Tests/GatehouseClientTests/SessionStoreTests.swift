import Foundation
import GatehouseClient
import GatehouseTestSupport
import LoginCore
import Testing

/// The session stores: file, memory and the real Secret Service (seed 000 R7, A16; 001 FR-016).
@Suite struct SessionStoreTests {
    static let session = Session(
        accessToken: "eyJ.header.sig", refreshToken: "ghr_refresh_secret", expiresAt: Date(timeIntervalSince1970: 1_800_000_900),
        user: SignedInUser(id: "u-1", email: "user@example.com", name: "Demo User")
    )

    /// Saves, reloads, replaces and clears a session in `store`.
    static func roundTrip(_ store: any SessionStore) async throws {
        #expect(try await store.load() == nil)
        try await store.save(session)
        #expect(try await store.load() == session)
        var changed = session
        changed.refreshToken = "ghr_rotated"
        try await store.save(changed)
        #expect(try await store.load() == changed)
        try await store.save(nil)
        #expect(try await store.load() == nil)
    }

    @Test func inMemoryStoreRoundTrips() async throws {
        try await Self.roundTrip(InMemorySessionStore())
    }

    @Test func A16_fileStoreIsOwnerOnlyAndRoundTrips() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-store-\(UUID().uuidString)")
        let url = FileSessionStore.defaultURL(name: "127.0.0.1-8080", environment: ["XDG_STATE_HOME": folder.path])
        #expect(url.path == folder.path + "/gatehouse/127.0.0.1-8080.json")
        let store = FileSessionStore(url: url)
        try await store.save(Self.session)
        let file = try FileManager.default.attributesOfItem(atPath: url.path)
        let directory = try FileManager.default.attributesOfItem(atPath: url.deletingLastPathComponent().path)
        #expect((file[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect((directory[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        try await store.save(nil)
        try await Self.roundTrip(store)
    }

    #if os(Linux)
    /// The file never holds the refresh token readable by others, not even for a moment: made
    /// owner-only by the `open(2)` that creates it and renamed into place, never narrowed after
    /// with a `chmod` (an `IN_ATTRIB` event), as `FileManager.createFile` did.
    @Test func A16_theSessionFileIsOwnerOnlyFromItsFirstByte() async throws {
        let folder = try WatchedFolder()
        let store = FileSessionStore(url: URL(fileURLWithPath: folder.path + "/session.json"))
        try await store.save(Self.session)
        var changed = Self.session
        changed.refreshToken = "ghr_rotated"
        try await store.save(changed)
        let events = folder.events()
        #expect(try folder.mode(of: "session.json") == 0o600)
        #expect(events.attributesChanged.isEmpty, "narrowed after it was written: \(events.attributesChanged)")
        #expect(events.made.filter { $0 == "session.json" }.count == 2, "renamed into place at each save: \(events.made)")
        #expect(try await store.load() == changed)
    }

    /// Runs only inside a D-Bus session with a keyring; `scripts/test.sh` starts both and sets
    /// `GATEHOUSE_REQUIRE_KEYRING=1`, so there a missing keyring fails instead of skipping.
    static var keyringRequired: Bool { ProcessInfo.processInfo.environment["GATEHOUSE_REQUIRE_KEYRING"] == "1" }

    @Test func R7_secretServiceStoresAccessAndRefreshAsSeparateItems() async throws {
        let server = "http://127.0.0.1:\(Int.random(in: 20_000...60_000))"
        guard let store = SecretServiceSessionStore(server: server), store.isReachable() else {
            #expect(!Self.keyringRequired, "no Secret Service answered, but the test script started one")
            return
        }
        try await Self.roundTrip(store)
        try await store.save(Self.session)
        #expect(try Self.secretTool(["lookup", "service", "gatehouse", "server", server, "item", "refresh"]) == "ghr_refresh_secret")
        let access = try Self.secretTool(["lookup", "service", "gatehouse", "server", server, "item", "access"])
        #expect(access.contains("eyJ.header.sig") && !access.contains("ghr_refresh_secret"))
        let reopened = try #require(SecretServiceSessionStore(server: server))
        #expect(try await reopened.load() == Self.session, "another process sees the same items")
        try await store.save(nil)
    }

    /// Reads the keyring with libsecret's own command-line tool, independently of the SDK.
    static func secretTool(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/secret-tool")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
    #endif
}
