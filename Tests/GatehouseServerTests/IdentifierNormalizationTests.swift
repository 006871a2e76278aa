import Foundation
import GatehouseCore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LoginCore
import Testing

/// Issue 10, finding 7: one normalisation (NFKC, case fold) at account creation and at
/// sign-in, and duplicate JSON keys refused on every JSON surface.
@Suite struct IdentifierNormalizationTests {
    @Test func F7_theKelvinSignNamesTheSameAccountAtCreationAndSignIn() async throws {
        let fixture = try await Fixture()
        let created = try await fixture.withAdministration {
            try await $0.create(email: "\u{212A}ate@Example.COM", name: "Kate Bell", password: "kate-password-1")
        }
        #expect(created.email == "kate@example.com")
        let duplicate = await #expect(throws: AdministrationError.self) {
            try await fixture.withAdministration { try await $0.create(email: "KATE@example.com", name: "Kate Two", password: "kate-password-2") }
        }
        #expect(duplicate == .emailTaken("kate@example.com"))
        try await fixture.test { client in
            for spelling in ["\u{212A}ate@example.com", "KATE@EXAMPLE.COM", "ｋａｔｅ@example.com", " kate@example.com "] {
                let grant = try await client.grant(spelling, "kate-password-1")
                #expect(grant.user.email == "kate@example.com", "\(spelling)")
            }
        }
        #expect(EmailAddress.normalized("Straße@Example.de") == "strasse@example.de", "full case folding")
    }

    @Test func F7_plainASCIIAddressesNormaliseAsTheUnicodePassesDo() {
        // The ASCII shortcut against the full passes, for every ASCII character at the start,
        // inside and at the end of an address.
        for byte in UInt8(0)..<0x80 {
            let c = String(UnicodeScalar(byte))
            for raw in ["\(c)User@Example.COM", "us\(c)er@example.com", "user@EXAMPLE.com\(c)", "\(c)\(c)", c, " \t\(c)A\n"] {
                #expect(EmailAddress.normalized(raw) == EmailAddress.unicodeNormalized(raw), "byte \(byte) in \(raw.debugDescription)")
            }
        }
        #expect(EmailAddress.normalized("") == "")
        #expect(EmailAddress.normalized("  User@Example.COM\r\n") == "user@example.com")
    }

    @Test func F7_aRepeatedKeyIsRefusedOnGraphQLAndSupabase() async throws {
        let fixture = try await Fixture()
        try await fixture.test({ $0.supabaseAnonKey = "anon" }) { client in
            let graphQL = #"{"query": "{ me { id } }", "query": "mutation { logout }"}"#
            let response = try await client.postJSON("/graphql", graphQL)
            #expect(response.status == .badRequest)
            #expect(try GraphQLRouteTests.firstError(response) == ("The body must not name a key twice", "BAD_USER_INPUT"))
            let body = #"{"email": "nobody@example.com", "email": "user@example.com", "password": "password123"}"#
            let goTrue = try await client.postJSON("/auth/v1/token?grant_type=password", body, headers: [HTTPField.Name("apikey")!: "anon"])
            #expect(goTrue.status == .badRequest)
            #expect(goTrue.text.contains("The body must not name a key twice"))
        }
    }
}
