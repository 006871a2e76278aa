import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// Malformed requests get a 4xx with a JSON error body; never a 500, never a crash.
@Suite struct BadInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let body: ByteBuffer
        let status: HTTPResponse.Status
        let error: String
        var testDescription: String { name }

        init(_ name: String, _ body: String, _ status: HTTPResponse.Status = .badRequest, _ error: String = "invalid_request") {
            self.init(name, ByteBuffer(string: body), status, error)
        }

        init(_ name: String, _ body: ByteBuffer, _ status: HTTPResponse.Status, _ error: String) {
            self.name = name
            self.body = body
            self.status = status
            self.error = error
        }
    }

    static let cases: [Case] = [
        Case("empty body", ""),
        Case("truncated JSON", #"{"email": "user@example.com", "pass"#),
        Case("not JSON", "email=user@example.com&password=password123"),
        Case("array instead of object", #"["user@example.com", "password123"]"#),
        Case("missing password", #"{"email": "user@example.com"}"#),
        Case("missing email", #"{"password": "password123"}"#),
        Case("email is a number", #"{"email": 42, "password": "password123"}"#),
        Case("password is null", #"{"email": "user@example.com", "password": null}"#),
        Case("password is an object", #"{"email": "user@example.com", "password": {"a": 1}}"#),
        Case("empty email", #"{"email": "", "password": "password123"}"#),
        Case("empty password", #"{"email": "user@example.com", "password": ""}"#),
        Case("raw NUL byte outside strings", "{\"email\": \"user@example.com\",\0 \"password\": \"x\"}"),
        Case("10 000-character password", #"{"email": "user@example.com", "password": "\#(String(repeating: "p", count: 10_000))"}"#),
        Case("1 MB body", ByteBuffer(repeating: UInt8(ascii: "a"), count: 1_000_000), .contentTooLarge, "payload_too_large"),
        Case("body just over 16 KiB", ByteBuffer(string: #"{"email": "user@example.com", "password": "\#(String(repeating: "p", count: 16_400))"}"#), .contentTooLarge, "payload_too_large"),
        Case("a repeated key", #"{"email": "nobody@example.com", "email": "user@example.com", "password": "password123"}"#),
        Case("a key repeated through an escape", #"{"email": "nobody@example.com", "\u0065mail": "user@example.com", "password": "password123"}"#),
        Case("NUL inside the password", #"{"email": "user@example.com", "password": "password123\u0000"}"#, .unauthorized, "invalid_credentials"),
        Case("Unicode email", #"{"email": "üser@exämple.com", "password": "password123"}"#, .unauthorized, "invalid_credentials"),
        Case("emoji and RTL marks", #"{"email": "\u202Euser@example.com😀", "password": "pässwörd😀"}"#, .unauthorized, "invalid_credentials"),
        Case("lone surrogate escape", #"{"email": "\ud800@example.com", "password": "password123"}"#),
    ]

    @Test(arguments: cases)
    func badLoginInputIsRefusedWithJson(_ input: Case) async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let response = try await client.execute(uri: "/api/auth/login", method: .post, body: input.body)
            #expect(response.status == input.status)
            #expect(response.errorBody?.error == input.error, "body: \(response.text.prefix(200))")
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
        }
    }

    @Test(arguments: [#"{"refresh_token": 7}"#, "{}", "nope", #"{"refresh_token": ""}"#])
    func badRefreshInputIsRefusedWithJson(_ body: String) async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let response = try await client.postJSON("/api/auth/refresh", body)
            #expect((400..<500).contains(response.status.code))
            #expect(response.errorBody != nil)
        }
    }

    @Test func unknownLogoutScopeIs400() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let grant = try await client.grant()
            let response = try await client.logout(grant.accessToken, scope: "everyone")
            #expect(response.status == .badRequest)
            #expect(response.errorBody?.message == "scope must be one of: local, global, others")
        }
    }
}
