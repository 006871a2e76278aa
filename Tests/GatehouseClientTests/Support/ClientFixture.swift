import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GatehouseClient
import GatehouseCore
import GatehouseDelivery
import GatehousePhoneNumbers
import GatehouseSQL
import GatehouseTestSupport
import Logging
import LoginCore
import SQLKit
import Synchronization

/// The real server on loopback and clients of it, all on one hand-moved clock.
struct ClientFixture {
    static let email = "user@example.com"
    static let password = "password123"
    static let anonKey = "fixture-anon-key"

    let clock = TestClock()
    let server: LoopbackServer

    init(grace: Int = 10, abuse: AbusePolicy = AbusePolicy()) async throws {
        let clock = clock
        server = try await LoopbackServer.start(users: [(Self.email, "Demo User", Self.password)]) {
            $0.clock = { clock.now }
            $0.refreshReuseGrace = grace
            $0.supabaseAnonKey = Self.anonKey
            $0.abuse = abuse
        }
    }

    /// The configuration every client here uses: the fixture's clock, and a restore budget
    /// wide enough that a busy test machine never turns a definite answer into "offline"
    /// (the 1 s budget itself is measured by the benchmark, not raced here).
    var configuration: ClientConfiguration {
        var configuration = ClientConfiguration()
        configuration.restoreBudget = 20
        let clock = clock
        configuration.now = { clock.now }
        return configuration
    }

    /// A client of the server over real HTTP, with `store` (in memory by default).
    func client(store: any SessionStore = InMemorySessionStore(), transport: (any AuthTransport)? = nil) throws -> AuthClient {
        AuthClient(transport: try transport ?? RESTTransport(baseURL: server.url), store: store, configuration: configuration)
    }

    /// A transport of the server speaking `api`, chosen the way an app file chooses it.
    func transport(_ api: BackendConfiguration.API) throws -> any AuthTransport {
        try AuthTransports.make(BackendConfiguration(api: api, anonKey: api == .supabase ? Self.anonKey : nil), server: server.url)
    }

    /// Runs `body` with an administration of the server's database, as an operator would.
    func administer(_ body: (UserAdministration) async throws -> Void) async throws {
        let database = try await SQLiteDatabase(path: server.databasePath, logger: Logger(label: "admin"))
        let clock = clock
        try await body(UserAdministration(repository: SQLRepository(database: database.sql), numbers: LibPhoneNumber(), hasher: PasswordHasher(limits: .tests), clock: { clock.now }, passwordPolicy: nil))
        try await database.close()
    }

    /// How many refresh tokens the server has issued: one per login plus one per rotation.
    func refreshTokensIssued() async throws -> Int {
        let database = try await SQLiteDatabase(path: server.databasePath, logger: Logger(label: "count"))
        struct Row: Decodable { let n: Int }
        let count = try await database.sql.raw("SELECT COUNT(*) AS n FROM refresh_tokens").first(decoding: Row.self)?.n
        try await database.close()
        return count ?? -1
    }

    /// `GET /api/me` on the server, as an app's own API call would be made.
    var meRequest: URLRequest { URLRequest(url: server.url.appendingPathComponent("api/me")) }
}

/// A transport that counts the refreshes it passes on to the real one.
final class CountingTransport: AuthTransport {
    let base: any AuthTransport
    private let count = Mutex(0)
    private let userCount = Mutex(0)
    var refreshes: Int { count.withLock { $0 } }
    /// How many times the user was asked for (launch validation).
    var userRequests: Int { userCount.withLock { $0 } }

    init(_ base: any AuthTransport) { self.base = base }

    func token(_ grant: AuthGrant) async throws -> TokenResponse {
        if case .refreshToken = grant { count.withLock { $0 += 1 } }
        return try await base.token(grant)
    }

    func signOut(accessToken: String, scope: SignOutScope) async throws {
        try await base.signOut(accessToken: accessToken, scope: scope)
    }

    func user(accessToken: String, timeout: TimeInterval?) async throws -> SignedInUser {
        userCount.withLock { $0 += 1 }
        return try await base.user(accessToken: accessToken, timeout: timeout)
    }
}
