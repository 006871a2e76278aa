import Foundation
import GatehouseClient
import Hummingbird
import Logging
import ServiceLifecycle
import Testing

/// The REST transport: HTTPS only, error mapping, and servers that answer nonsense.
@Suite struct TransportTests {
    @Test(arguments: ["http://example.com", "http://10.0.0.5:8080", "ftp://127.0.0.1", "not a url"])
    func A17_credentialsNeverTravelOverPlainHTTP(url: String) {
        #expect(throws: AuthError.self) { try RESTTransport(baseURL: URL(string: url) ?? URL(fileURLWithPath: url)) }
    }

    @Test(arguments: ["https://auth.example.com", "http://127.0.0.1:8080", "http://localhost:9000", "http://[::1]:8080"])
    func httpsAndLoopbackAreAllowed(url: String) throws {
        _ = try RESTTransport(baseURL: URL(string: url)!)
    }

    @Test func sessionDescriptionsNeverShowTokens() {
        let session = Session(accessToken: "a.b.c", refreshToken: "ghr_secret", expiresAt: Date(timeIntervalSince1970: 0),
                              user: .init(id: "1", email: "user@example.com", name: "U"))
        let text = "\(session) \(String(reflecting: session))"
        #expect(!text.contains("a.b.c") && !text.contains("ghr_secret"))
    }

    /// A server that answers every auth route with something broken.
    static func brokenServer() async throws -> (URL, ServiceGroup) {
        let router = Router()
        router.post("/api/auth/login") { _, _ in
            #"{"access_token":"not-a-jwt","refresh_token":"r","expires_in":900,"user":{"id":"1","email":"e@x.io","name":"E"}}"#
        }
        router.post("/api/auth/refresh") { _, _ in "<html>502 Bad Gateway</html>" }
        router.get("/api/me") { _, _ in #"{"unexpected": true}"# }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) })
        let group = ServiceGroup(services: [app], logger: Logger(label: "broken"))
        Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        let port = await iterator.next() ?? 0
        return (URL(string: "http://127.0.0.1:\(port)")!, group)
    }

    @Test func edgeCase_malformedTokenIsAClearErrorAndNoSessionIsStored() async throws {
        let (url, group) = try await Self.brokenServer()
        defer { Task { await group.triggerGracefulShutdown() } }
        let store = InMemorySessionStore()
        let client = AuthClient(transport: try RESTTransport(baseURL: url), store: store)
        await #expect(throws: AuthError.malformedResponse("the server sent a malformed token")) {
            try await client.signIn(email: "e@x.io", password: "password123")
        }
        #expect(try await store.load() == nil)
    }

    @Test func malformedRefreshAnswerKeepsTheSession() async throws {
        let (url, group) = try await Self.brokenServer()
        defer { Task { await group.triggerGracefulShutdown() } }
        let clock = FixedInstant()
        let stored = Session(accessToken: "a.b.c", refreshToken: "ghr_x", expiresAt: clock.start.addingTimeInterval(10),
                             user: .init(id: "1", email: "e@x.io", name: "E"))
        let store = InMemorySessionStore(stored)
        var configuration = ClientConfiguration()
        configuration.now = { clock.start }
        let client = AuthClient(transport: try RESTTransport(baseURL: url), store: store, configuration: configuration)
        #expect(await client.restore() == .offline(stored))
        #expect(try await client.session() == stored, "a refresh the server garbled never signs out")
        #expect(try await store.load() == stored)
    }
}

/// A fixed instant for tests that need no moving clock.
struct FixedInstant {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
}
