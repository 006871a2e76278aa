import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseSQL
import GatehouseServer
import GatehouseTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTesting
import Logging
import NIOCore
import RESTSurface
import SupabaseSurface
import WebSurface
import Synchronization
import Testing

/// A password sign-in is answered from the hashing thread it runs on, from its first
/// middleware to its answer's last byte (``HashingThreadResponder``).
@Suite struct HashingThreadResponderTests {
    static func request(_ method: HTTPRequest.Method, _ path: String) -> Request {
        Request(head: HTTPRequest(method: method, scheme: "http", authority: "localhost", path: path), body: RequestBody(buffer: ByteBuffer()))
    }

    @Test func eachSurfacesPasswordSignInIsKnownByItsMethodPathAndGrant() {
        let rest = AuthController.passwordSignIn, web = WebController.passwordSignIn, supabase = GoTrueController.passwordSignIn
        #expect(rest.matches(Self.request(.post, "/api/auth/login")))
        #expect(!rest.matches(Self.request(.get, "/api/auth/login")))
        #expect(!rest.matches(Self.request(.post, "/api/auth/refresh")))
        #expect(!rest.matches(Self.request(.post, "/api/auth/login/more")))
        #expect(web.matches(Self.request(.post, "/login?next=%2Fhome")))
        #expect(!web.matches(Self.request(.post, "/login/phone")))
        #expect(!web.matches(Self.request(.get, "/login")))
        #expect(supabase.matches(Self.request(.post, "/auth/v1/token?grant_type=password")))
        #expect(!supabase.matches(Self.request(.post, "/auth/v1/token?grant_type=refresh_token")))
        #expect(!supabase.matches(Self.request(.post, "/auth/v1/token")))
    }

    /// A server whose `POST /probe` is a password sign-in for `pool`: the probe records, for
    /// each request, whether its handler and its body's write ran on a hashing thread.
    /// With `connections`, each connection is served as the server serves it
    /// (``GuardedChannel`` with a ``ConnectionExecutor``), and the probe also records where
    /// each request arrived, before the responder chose a thread for it.
    static func probe(pool: HashingPool, connections: Bool = false, _ test: @escaping @Sendable (any TestClientProtocol, Seen) async throws -> Void) async throws {
        let seen = Seen()
        let router = Router()
        let handler: @Sendable (Request, BasicRequestContext) async throws -> Response = { _, _ in
            seen.record()
            return Response(status: .ok, body: ResponseBody { writer in
                seen.record()
                try await writer.write(ByteBuffer(string: "ok"))
                try await writer.finish(nil)
            })
        }
        router.post("/probe", use: handler)
        router.get("/probe", use: handler)
        let answers = HashingThreadResponder(pool: pool, routes: [PasswordSignInRoute(path: "/probe")])
        let app = Application(
            router: router,
            server: HTTPServerBuilder { base in
                guard connections else { return HTTP1Channel(responder: answers.wrapping(base)) }
                let wrapped = answers.wrapping(base)
                let arriving: HTTPChannelHandler.Responder = { request, writer, channel in
                    seen.arrived()
                    try await wrapped(request, writer, channel)
                }
                let channel = HTTP1Channel(responder: arriving)
                return GuardedChannel(base: channel, limits: ConnectionLimits(), connections: ConnectionCount(), hashing: answers)
            },
            configuration: .init(address: .hostname("127.0.0.1", port: 0))
        )
        try await app.test(.live) { client in try await test(client, seen) }
    }

    @Test func aPasswordSignInRunsAndWritesItsAnswerOnAHashingThreadAndOtherRequestsDoNot() async throws {
        try await Self.probe(pool: .shared(.tests)) { client, seen in
            try await client.execute(uri: "/probe", method: .post) { #expect($0.status == .ok && String(buffer: $0.body) == "ok") }
            #expect(seen.threads == [true, true], "the handler and the answer's write, both on a hashing thread")
            seen.clear()
            try await client.execute(uri: "/probe", method: .get) { #expect($0.status == .ok) }
            #expect(seen.threads == [false, false], "any other request stays off the hashing threads")
        }
    }

    @Test func afterASignInAConnectionsNextRequestArrivesOnAFreeHashingThreadAndAnyOtherIsSentOnToSwiftsPool() async throws {
        // A pool of its own, so both its threads are free whenever a request arrives.
        var limits = HashingLimits(queueDepth: 61)
        limits.threads = 2
        try await Self.probe(pool: .shared(limits), connections: true) { client, seen in
            for (method, arrives, runs) in [(HTTPRequest.Method.post, false, true), (.post, true, true), (.get, true, false), (.get, false, false), (.post, false, true)] {
                seen.clear()
                try await client.execute(uri: "/probe", method: method) { #expect($0.status == .ok && String(buffer: $0.body) == "ok") }
                #expect(seen.arrivals == [arrives], "\(method): where it arrived, on one connection")
                #expect(seen.threads == [runs, runs], "\(method): where its handler and its answer's write ran")
            }
        }
    }

    @Test func withTheHashingQueueFullASignInIsAnsweredTheUsualWay() async throws {
        // No room at all: the sign-in's limits must answer before the hasher refuses it.
        try await Self.probe(pool: .shared(HashingLimits(queueDepth: 0))) { client, seen in
            try await client.execute(uri: "/probe", method: .post) { #expect($0.status == .ok) }
            #expect(seen.threads == [false, false])
        }
    }

    @Test func theServerAnswersItsSurfacesPasswordSignInsFromAHashingThreadOnAnSQLiteFileOnly() async throws {
        let fixture = try await Fixture()
        var configuration = fixture.configuration
        configuration.supabaseAnonKey = "anon"
        #expect(passwordSignInRoutes(configuration) == [AuthController.passwordSignIn, WebController.passwordSignIn, GoTrueController.passwordSignIn])
        configuration.supabaseAnonKey = nil
        #expect(passwordSignInRoutes(configuration) == [AuthController.passwordSignIn, WebController.passwordSignIn])
        for path in [fixture.databasePath, ":memory:"] {
            configuration.databasePath = path
            try await Storage.with(try DatabaseLocation(path), logger: Logger(label: "test")) { storage in
                if path == ":memory:" { try await storage.repository.migrate() }
                let services = try await buildRouterAndServices(configuration, repository: storage.repository, logger: Logger(label: "test")).services
                let responder = hashingThreadResponder(configuration, pipeline: services.pipeline)
                let onFile = path != ":memory:" && !TestDatabase.fixturesOnPostgres
                #expect((responder != nil) == onFile, "\(path): only where the sign-in's statements run on its hashing thread")
                #expect(responder.map(\.routes) ?? [] == (onFile ? passwordSignInRoutes(configuration) : []))
            }
        }
    }

    @Test func theLoginFormPostsToTheWebSignInAndTheAPIsSignInsAnswerThroughTheRealServer() async throws {
        let fixture = try await Fixture()
        try await fixture.test({ $0.supabaseAnonKey = "anon" }, mode: .live) { client in
            try await client.execute(uri: "/login", method: .get) { response in
                #expect(String(buffer: response.body).contains("action=\"\(WebController.passwordSignIn.path)\""))
            }
            let body = ByteBuffer(string: #"{"email":"\#(Fixture.email)","password":"\#(Fixture.password)"}"#)
            try await client.execute(uri: AuthController.passwordSignIn.path, method: .post, headers: [.contentType: "application/json"], body: body) {
                #expect($0.status == .ok)
            }
            let supabase = GoTrueController.passwordSignIn
            try await client.execute(
                uri: "\(supabase.path)?\(supabase.query?.name ?? "")=\(supabase.query?.value ?? "")", method: .post,
                headers: [.contentType: "application/json", HTTPField.Name("apikey")!: "anon"], body: body
            ) { #expect($0.status == .ok) }
        }
    }

    /// For each step of the probe's requests, whether it ran on a hashing thread.
    final class Seen: Sendable {
        private let steps = Mutex<[Bool]>([])
        private let arrivalSteps = Mutex<[Bool]>([])
        func record() { steps.withLock { $0.append(HashingPool.onHashingThread) } }
        func arrived() { arrivalSteps.withLock { $0.append(HashingPool.onHashingThread) } }
        var threads: [Bool] { steps.withLock { $0 } }
        var arrivals: [Bool] { arrivalSteps.withLock { $0 } }
        func clear() { steps.withLock { $0 = [] }; arrivalSteps.withLock { $0 = [] } }
    }
}
