import LoginCore
import Foundation
import JWTKit
import GatehouseCore
import GatehouseSQL
import GatehouseServer
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// `docs/openapi.yaml` is the document the server serves, and it lists exactly the API routes.
@Suite struct OpenAPIDocumentTests {
    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/openapi.yaml")

    /// `(method, path)` pairs of the document's `paths` section, read line by line.
    static func documentedOperations() throws -> Set<String> {
        let lines = try String(contentsOf: document, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        var operations = Set<String>(), path: String?
        for line in lines {
            if line == "components:" { break }
            if line.hasPrefix("  /"), line.hasSuffix(":") { path = String(line.dropFirst(2).dropLast()) }
            let method = line.trimmingCharacters(in: .whitespaces).dropLast()
            if line.hasPrefix("    "), !line.hasPrefix("     "), ["get", "post", "put", "delete", "patch"].contains(String(method)), let path {
                operations.insert("\(method.uppercased()) \(path)")
            }
        }
        return operations
    }

    @Test func theServedDocumentIsDocsOpenapiYaml() async throws {
        try await Fixture().test { client in
            let response = try await client.execute(uri: "/openapi.yaml", method: .get)
            #expect(response.status == .ok && response.headers[.contentType] == "application/yaml; charset=utf-8")
            #expect(Data(buffer: response.body) == (try Data(contentsOf: Self.document)))
        }
    }

    @Test func everyAPIRouteIsDocumentedAndEveryDocumentedRouteExists() async throws {
        let fixture = try await Fixture()
        var configuration = fixture.configuration
        configuration.supabaseAnonKey = "key"
        configuration.serviceRoleKey = "service-role-key-0123456789abcdef0123456789"
        configuration.phone = PhonePolicy()
        configuration.google = try ExternalProviderSettings(clientIDs: ["web.apps.example"])
        configuration.providers.append(try .apple(
            servicesID: "com.example.web", key: AppleSigningKey(teamID: "TEAMID1234", keyID: "KEYID12345", privateKeyPEM: ES256PrivateKey().pemRepresentation)
        ))
        configuration.mfa = MFAPolicy()
        configuration.signInMethods = SignInMethods(methods: [.email, .emailCode])
        configuration.email = .outbox(path: fixture.directory.appendingPathComponent("mail.jsonl").path)
        let database = try await SQLiteDatabase(path: fixture.databasePath, logger: Logger(label: "t"))
        let router = try await buildRouter(configuration, repository: SQLRepository(database: database.sql), logger: Logger(label: "t"))
        try await database.close()
        let webScreen: Set<String> = [
            "GET /", "GET /login", "POST /login", "GET /home", "POST /logout", "GET /assets/{name}",
            "GET /login/phone", "POST /login/phone", "GET /login/code", "POST /login/code", "POST /login/code/resend",
            "GET /register", "POST /register", "GET /welcome", "POST /welcome", "POST /home/{provider}/unlink",
            "GET /assets/logo", "GET /signup", "POST /signup", "GET /verify-email", "POST /verify-email", "POST /verify-email/resend",
            "GET /forgot-password", "POST /forgot-password", "GET /reset-password", "POST /reset-password",
            "POST /login/passkey/options", "POST /login/passkey", "POST /home/passkeys/options", "POST /home/passkeys",
            "POST /home/passkeys/decline", "POST /home/passkeys/{id}/rename", "POST /home/passkeys/{id}/delete",
            "POST /home/devices/{id}/sign-out", "GET /home/passkeys/{id}/delete", "GET /home/devices/{id}/sign-out", "GET /home/{provider}/unlink",
            "GET /login/mfa", "POST /login/mfa", "POST /login/mfa/passkey/options", "POST /login/mfa/passkey", "GET /home/mfa", "POST /home/mfa/setup", "POST /home/mfa/verify",
            "GET /home/mfa/{id}/remove", "POST /home/mfa/{id}/remove", "GET /home/mfa/recovery-codes", "POST /home/mfa/recovery-codes",
            "GET /home/delete", "POST /home/delete", "GET /sign-in-code", "POST /sign-in-code", "POST /sign-in-code/verify",
            "GET /sign-in-link", "POST /sign-in-link", "GET /home/email", "POST /home/email", "POST /email-change/code",
            "GET /email-change", "POST /email-change", "GET /email-change/cancel", "POST /email-change/cancel", "GET /email-change/revert",
            "POST /email-change/revert",
        ]
        let routed = Set(router.routes.map { "\($0.method.rawValue) \($0.path)" }).subtracting(webScreen)
        let documented = try Self.documentedOperations()
        #expect(documented.count >= 11)
        #expect(routed == documented, "routed but undocumented: \(routed.subtracting(documented)); documented but not routed: \(documented.subtracting(routed))")
    }
}
