import Foundation
import LoginCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Seed 000's REST contract: `POST /api/auth/login`, `/refresh`, `/logout`, `GET /api/me`.
public struct RESTTransport: AuthTransport {
    /// Where each call goes, relative to the base URL.
    public struct Paths: Sendable {
        public var login = "api/auth/login"
        public var refresh = "api/auth/refresh"
        public var logout = "api/auth/logout"
        public var me = "api/me"
        public init() {}
    }

    public let baseURL: URL
    let paths: Paths
    let http: any HTTPExecutor

    /// Creates a transport; throws ``AuthError/insecureURL(_:)`` for plain http off loopback.
    public init(baseURL: URL, paths: Paths = Paths(), http: any HTTPExecutor = URLSessionExecutor()) throws {
        self.baseURL = try ServerURL.validated(baseURL)
        self.paths = paths
        self.http = http
    }

    public func signIn(email: String, password: String) async throws -> TokenResponse {
        try await tokens(post(paths.login, ["email": email, "password": password]))
    }

    public func refresh(_ refreshToken: String) async throws -> TokenResponse {
        try await tokens(post(paths.refresh, ["refresh_token": refreshToken]))
    }

    public func signOut(accessToken: String, scope: SignOutScope) async throws {
        var components = URLComponents(url: url(paths.logout), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "scope", value: scope.rawValue)]
        var request = URLRequest(url: components?.url ?? url(paths.logout))
        request.httpMethod = "POST"
        request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization")
        _ = try await send(request)
    }

    public func user(accessToken: String, timeout: TimeInterval?) async throws -> SignedInUser {
        var request = URLRequest(url: url(paths.me))
        request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization")
        if let timeout { request.timeoutInterval = timeout }
        let data = try await send(request)
        guard let user = try? JSONDecoder().decode(SignedInUser.self, from: data) else {
            throw AuthError.malformedResponse("the user is not in the expected form")
        }
        return user
    }

    private func url(_ path: String) -> URL {
        baseURL.appendingPathComponent(path)
    }

    private func post(_ path: String, _ body: [String: String]) async throws -> Data {
        var request = URLRequest(url: url(path))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(body)
        return try await send(request)
    }

    private func send(_ request: URLRequest) async throws -> Data {
        var request = request
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (data, response) = try await http.data(for: request)
        guard (200..<300).contains(response.statusCode) else { throw ResponseError.map(response, data) }
        return data
    }

    private func tokens(_ data: Data) throws -> TokenResponse {
        guard let response = try? JSONDecoder().decode(TokenResponse.self, from: data) else {
            throw AuthError.malformedResponse("the token response is not in the expected form")
        }
        guard response.accessToken.split(separator: ".", omittingEmptySubsequences: false).count == 3,
              !response.refreshToken.isEmpty, response.expiresIn > 0
        else { throw AuthError.malformedResponse("the server sent a malformed token") }
        return response
    }
}
