import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// Drives the API over real HTTP with AsyncHTTPClient and counts completed requests.
struct LoadClient: Sendable {
    let base: String
    static let email = "bench@example.com"
    static let password = "bench-password-1"
    let http = Self.keptUntilExit(HTTPClient(eventLoopGroupProvider: .singleton, configuration: Self.configuration))

    /// Connections kept 30 s; a refused one fails at once (the server under test is up, or
    /// the phase fails) rather than being tried again until the request's deadline.
    private static var configuration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(connectionPool: .init(idleTimeout: .seconds(30)))
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }

    /// Every client made, held until the process exits.
    ///
    /// A phase shuts its client down when it is done; one that fails drops it without, and a
    /// debug build of async-http-client traps on a client released that way, so the phase's
    /// error would end in a crash instead of `gatehouse-bench`'s one line.
    private static let kept = Mutex<[HTTPClient]>([])

    private static func keptUntilExit(_ client: HTTPClient) -> HTTPClient {
        kept.withLock { $0.append(client) }
        return client
    }

    struct Tokens: Sendable {
        let access: String
        let refresh: String
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Requests per second when `concurrency` workers call `work` back to back for `seconds`.
    func rate(concurrency: Int, seconds: Double, _ work: @escaping @Sendable (Int) async throws -> Void) async throws -> Double {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        let start = ContinuousClock.now
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    var done = 0
                    while ContinuousClock.now < deadline {
                        try await work(worker)
                        done += 1
                    }
                    return done
                }
            }
            return try await group.reduce(0, +)
        }
        return Double(total) / (ContinuousClock.now - start).seconds
    }

    /// Median latencies of a login with the right email and with an unknown one.
    func loginLatencies(samples: Int) async throws -> (known: Double, unknown: Double) {
        var known: [Double] = [], unknown: [Double] = []
        for _ in 0..<samples {
            var start = ContinuousClock.now
            _ = try await post("/api/auth/login", ["email": Self.email, "password": "wrong-password"], expect: 401)
            known.append((ContinuousClock.now - start).seconds)
            start = ContinuousClock.now
            _ = try await post("/api/auth/login", ["email": "nobody@example.com", "password": "wrong-password"], expect: 401)
            unknown.append((ContinuousClock.now - start).seconds)
        }
        return (known.sorted()[samples / 2], unknown.sorted()[samples / 2])
    }

    func login(from address: String? = nil) async throws -> Tokens {
        let headers = address.map { ["X-Forwarded-For": $0] } ?? [:]
        return try await tokens(post("/api/auth/login", ["email": Self.email, "password": Self.password], headers: headers, expect: 200))
    }

    /// Signs in as seed 000's demo account.
    func loginDemo() async throws -> Tokens {
        try await tokens(post("/api/auth/login", ["email": "user@example.com", "password": "password123"], expect: 200))
    }

    /// Latencies of `GET /api/me`, one request after another, for `seconds`.
    func meLatencies(_ accessToken: String, seconds: Double) async throws -> [Double] {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var latencies: [Double] = []
        while ContinuousClock.now < deadline {
            let start = ContinuousClock.now
            try await me(accessToken)
            latencies.append((ContinuousClock.now - start).seconds)
        }
        return latencies.sorted()
    }

    func refresh(_ token: String) async throws -> String {
        try await tokens(post("/api/auth/refresh", ["refresh_token": token], expect: 200)).refresh
    }

    func me(_ accessToken: String) async throws {
        try await authorized("/api/me", accessToken)
    }

    /// `query { me { … } }` over GraphQL (seed 001).
    func graphQLMe(_ accessToken: String) async throws {
        let body = #"{"query":"{ me { id email firstName lastName } }"}"#
        let buffer = try await authorized("/graphql", accessToken, body: body)
        guard buffer.readableBytesView.firstRange(of: Array("errors".utf8)) == nil else { throw Failure(description: "GraphQL me failed") }
    }

    /// `GET /auth/v1/user` (seed 003's Supabase Auth).
    func supabaseUser(_ accessToken: String) async throws {
        try await authorized("/auth/v1/user", accessToken, headers: ["apikey": Self.anonKey])
    }

    static let anonKey = "bench-anon-key"

    @discardableResult
    private func authorized(_ path: String, _ accessToken: String, body: String? = nil, headers: [String: String] = [:]) async throws -> ByteBuffer {
        var request = HTTPClientRequest(url: base + path)
        request.headers.add(name: "Authorization", value: "Bearer \(accessToken)")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await http.execute(request, timeout: .seconds(30))
        let buffer = try await response.body.collect(upTo: 64 * 1024)
        guard response.status.code == 200 else { throw Failure(description: "\(path) answered \(response.status.code)") }
        return buffer
    }

    /// A GET without credentials, expecting 200: the transport's own cost, for comparison.
    func fetch(_ path: String) async throws {
        let response = try await http.execute(HTTPClientRequest(url: base + path), timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 64 * 1024)
        guard response.status.code == 200 else { throw Failure(description: "GET \(path) answered \(response.status.code)") }
    }

    func shutdown() async throws {
        try await http.shutdown()
    }

    /// A phone route's POST, answering `expect`.
    func postPhone(_ path: String, _ body: [String: String], expect status: UInt) async throws -> ByteBuffer {
        try await post(path, body, expect: status)
    }

    /// `POST /api/auth/signup`, expecting 202.
    func signUp(_ email: String) async throws {
        _ = try await post("/api/auth/signup", ["email": email, "password": "bench passphrase \(email)", "name": "Bench"], expect: 202)
    }

    /// `POST /auth/google`, expecting a sign-in.
    func postGoogle(_ body: [String: String]) async throws -> ByteBuffer {
        try await post("/auth/google", body, expect: 200)
    }

    private func post(_ path: String, _ body: [String: String], headers: [String: String] = [:], expect status: UInt) async throws -> ByteBuffer {
        try await post(path, json: try JSONEncoder().encode(body), headers: headers, expect: status)
    }

    /// A POST of any JSON body (passkey credentials nest).
    func post(_ path: String, json: Data, headers: [String: String] = [:], expect status: UInt) async throws -> ByteBuffer {
        var request = HTTPClientRequest(url: base + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(data: json))
        let response = try await http.execute(request, timeout: .seconds(30))
        let buffer = try await response.body.collect(upTo: 64 * 1024)
        guard response.status.code == status else { throw Failure(description: "POST \(path) answered \(response.status.code)") }
        return buffer
    }

    private func tokens(_ buffer: ByteBuffer) throws -> Tokens {
        struct Grant: Decodable { let access_token: String; let refresh_token: String }
        let grant = try JSONDecoder().decode(Grant.self, from: Data(buffer: buffer))
        return Tokens(access: grant.access_token, refresh: grant.refresh_token)
    }
}

/// Each refresh worker's latest refresh token.
final class RefreshChains: Sendable {
    private let tokens: Mutex<[String]>
    init(_ tokens: [String]) { self.tokens = Mutex(tokens) }
    func get(_ index: Int) -> String { tokens.withLock { $0[index] } }
    func set(_ index: Int, _ token: String) { tokens.withLock { $0[index] = token } }
}
