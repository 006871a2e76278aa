import Foundation
import Hummingbird
import HummingbirdTesting
import JWTKit
import Testing

/// Access tokens: ES256 with a `kid`, the claims, the published JWKS and the persisted key.
@Suite struct TokenTests {
    static func segment(_ token: String, _ index: Int) throws -> [String: Any] {
        var part = String(token.split(separator: ".")[index])
        part = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        part += String(repeating: "=", count: (4 - part.count % 4) % 4)
        let data = try #require(Data(base64Encoded: part))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func accessTokenHasTheContractClaimsInWholeSeconds() async throws {
        let fixture = try await Fixture()
        let now = fixture.clock.now.timeIntervalSince1970.rounded(.down)
        try await fixture.test { client in
            let grant = try await client.grant()
            let header = try Self.segment(grant.accessToken, 0)
            #expect(header["alg"] as? String == "ES256")
            #expect((header["kid"] as? String)?.isEmpty == false)
            let claims = try Self.segment(grant.accessToken, 1)
            #expect(claims["iss"] as? String == "gatehouse")
            #expect(claims["sub"] as? String == grant.user.id)
            #expect((claims["aud"] as? [String]) == ["gatehouse"] || claims["aud"] as? String == "gatehouse")
            #expect(claims["iat"] as? Int == Int(now))
            #expect(claims["exp"] as? Int == Int(now) + 900)
            #expect((claims["sid"] as? String)?.isEmpty == false)
        }
    }

    @Test func jwksVerifiesIssuedTokens() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let grant = try await client.grant()
            let jwks = try await client.execute(uri: "/.well-known/jwks.json", method: .get)
            #expect(jwks.status == .ok)
            let keys = try await JWTKeyCollection().add(jwksJSON: jwks.text)
            struct Claims: JWTPayload {
                var sub: SubjectClaim
                var exp: ExpirationClaim
                func verify(using algorithm: some JWTAlgorithm) throws {}
            }
            let claims = try await keys.verify(grant.accessToken, as: Claims.self)
            #expect(claims.sub.value == grant.user.id)
            let kid = try Self.segment(grant.accessToken, 0)["kid"] as? String
            #expect(jwks.text.contains("\"kid\":\"\(kid ?? "-")\""))
        }
    }

    @Test func signingKeysLiveSealedInTheDatabaseAndSurviveRestarts() async throws {
        let fixture = try await Fixture()
        let firstKid = try await fixture.test { client in
            try Self.segment(try await client.grant().accessToken, 0)["kid"] as? String
        }
        let secondKid = try await fixture.test { client in
            try Self.segment(try await client.grant().accessToken, 0)["kid"] as? String
        }
        #expect(firstKid != nil && firstKid == secondKid)
        #expect(!FileManager.default.fileExists(atPath: fixture.databasePath + ".signing-key.pem"), "no key file any more")
        if fixture.keyEncryptionKey == nil {
            let attributes = try FileManager.default.attributesOfItem(atPath: fixture.databasePath + ".kek")
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "the SQLite key-encryption key is owner-only")
        }
        let stored = try await fixture.storedText(["signing_keys"])
        #expect(!stored.isEmpty && !stored.contains("PRIVATE KEY"), "the private key is stored sealed")
    }

    @Test func tokenFromAnotherAudienceIsRefused() async throws {
        let fixture = try await Fixture()
        let foreign = try await fixture.test({ $0.audience = "another-app" }) { client in
            try await client.grant().accessToken
        }
        try await fixture.test { client in
            let response = try await client.me(foreign)
            #expect(response.status == .unauthorized)
            #expect(response.errorBody?.message == "The access token was not issued for this service")
        }
    }

    @Test func lifetimesAreConfigurable() async throws {
        let fixture = try await Fixture()
        try await fixture.test({ $0.accessTokenLifetime = 60 }) { client in
            let grant = try await client.grant()
            #expect(grant.expiresIn == 60)
        }
    }
}
