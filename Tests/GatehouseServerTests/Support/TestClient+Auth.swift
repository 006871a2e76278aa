import Foundation
import GatehouseCore
import GatehouseHTTP
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// A decoded error body.
struct ErrorBody: Decodable, Equatable {
    let error: String
    let message: String
}

extension TestClientProtocol {
    func postJSON(_ uri: String, _ json: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        var headers = headers
        headers[.contentType] = "application/json"
        return try await execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: json))
    }

    func login(
        _ email: String = Fixture.email, _ password: String = Fixture.password, headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        let body = try JSONEncoder().encode(["email": email, "password": password])
        return try await postJSON("/api/auth/login", String(decoding: body, as: UTF8.self), headers: headers)
    }

    /// Signs in as if from `address`, through a proxy the server trusts (`X-Forwarded-For`).
    func login(_ email: String, _ password: String, from address: String, device: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [.xForwardedFor: address]
        if let device { headers[.gatehouseDevice] = device }
        return try await login(email, password, headers: headers)
    }

    /// Logs in with the demo account and returns the grant, failing the test on any other answer.
    func grant(_ email: String = Fixture.email, _ password: String = Fixture.password) async throws -> TokenGrant {
        let response = try await login(email, password)
        try #require(response.status == .ok)
        return try response.decoded(TokenGrant.self)
    }

    func refresh(_ token: String) async throws -> TestResponse {
        let body = try JSONEncoder().encode(["refresh_token": token])
        return try await postJSON("/api/auth/refresh", String(decoding: body, as: UTF8.self))
    }

    func me(_ accessToken: String) async throws -> TestResponse {
        try await execute(uri: "/api/me", method: .get, headers: [.authorization: "Bearer \(accessToken)"])
    }

    func logout(_ accessToken: String, scope: String? = nil) async throws -> TestResponse {
        let uri = scope.map { "/api/auth/logout?scope=\($0)" } ?? "/api/auth/logout"
        return try await execute(uri: uri, method: .post, headers: [.authorization: "Bearer \(accessToken)"])
    }
}

extension HTTPField.Name {
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
    static let gatehouseDevice = HTTPField.Name("Gatehouse-Device")!
    static let retryAfter = HTTPField.Name("Retry-After")!
}

/// The body of a 429: the error, the message and the wait.
struct ThrottledBody: Decodable, Equatable {
    let error: String
    let message: String
    let retry_after: Int
}

extension TestResponse {
    func decoded<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(buffer: body))
    }

    var errorBody: ErrorBody? { try? decoded(ErrorBody.self) }
    var text: String { String(buffer: body) }
}
