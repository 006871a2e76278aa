import Foundation
import GatehouseCore
import GatehouseSQL
import Hummingbird
import HummingbirdTesting
import JWTKit
import Testing

/// Issue 10, finding 7: a token is accepted only with this server's `kid` and in its one
/// canonical (low-S) form.
@Suite struct TokenCanonicalFormTests {
    /// The claims of an access token, to sign them again with other headers.
    struct Claims: JWTPayload {
        var iss: IssuerClaim
        var sub: SubjectClaim
        var aud: AudienceClaim
        var exp: ExpirationClaim
        var iat: IssuedAtClaim
        var sid: String
        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    /// The private key the fixture's server signs with, read as another instance would.
    static func signingKey(_ fixture: Fixture) async throws -> ES256PrivateKey {
        let kek = try KeyEncryptionKey.resolve(fixture.keyEncryptionKey, location: try DatabaseLocation(fixture.databasePath))
        return try await Storage.with(try DatabaseLocation(fixture.databasePath), logger: .init(label: "t")) { storage in
            let record = try #require(try await storage.repository.activeSigningKeys().last)
            return try SigningKey(record: record, kek: kek).privateKey
        }
    }

    static func signature(_ token: String) throws -> [UInt8] {
        Array(try #require(Data(base64URLEncoded: String(token.split(separator: ".")[2]))))
    }

    @Test func F7_aTokenWithoutKidOrWithAnUnknownKidIsRefused() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let token = try await client.grant().accessToken
            let key = try await Self.signingKey(fixture)
            let claims = try await JWTKeyCollection().unverified(token, as: Claims.self)
            let kid = try #require(TokenTests.segment(token, 0)["kid"] as? String)

            let sameKid = try await JWTKeyCollection().add(ecdsa: key, kid: JWKIdentifier(string: kid)).sign(claims, kid: JWKIdentifier(string: kid))
            #expect(try await client.me(ES256Signature.normalizedToken(sameKid)).status == .ok, "re-signing itself is sound")

            let noKid = try await JWTKeyCollection().add(ecdsa: key).sign(claims)
            #expect(try TokenTests.segment(noKid, 0)["kid"] == nil)
            let other = JWKIdentifier(string: "another-key")
            let unknownKid = try await JWTKeyCollection().add(ecdsa: key, kid: other).sign(claims, kid: other)
            for forged in [noKid, unknownKid] {
                let response = try await client.me(ES256Signature.normalizedToken(forged))
                #expect(response.status == .unauthorized)
                #expect(response.errorBody?.message == "The access token was not signed with this service's key")
            }
        }
    }

    /// Issue 35, point 9: the signature's base64url has one spelling. Padding and the unused
    /// low bits of its last character made 48 strings of one token valid.
    @Test func S9_everyOtherSpellingOfTheSignatureIsRefused() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test { client in
            let token = try await client.grant().accessToken
            let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let signature = parts[2]
            #expect(signature.count == 86)
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
            let lastCharacter = try #require(signature.last)
            let last = try #require(alphabet.firstIndex(of: lastCharacter))
            // The last character carries 2 bits of the signature; its 4 low bits are unused.
            let lastCharacters = (0..<16).map { alphabet[(last & ~15) | $0] }
            var spellings: [String] = []
            for character in lastCharacters {
                for padding in ["", "=", "=="] {
                    spellings.append(String(signature.dropLast()) + String(character) + padding)
                }
            }
            #expect(spellings.count == 48 && spellings.filter { $0 == signature }.count == 1)
            #expect(try await client.me(token).status == .ok)
            for spelling in spellings where spelling != signature {
                let response = try await client.me(parts[0] + "." + parts[1] + "." + spelling)
                #expect(response.status == .unauthorized, "\(spelling.suffix(4))")
            }
        }
    }

    @Test func F7_theHighSTwinOfAValidTokenIsRefused() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let jwks = try await JWTKeyCollection().add(jwksJSON: try await client.execute(uri: "/.well-known/jwks.json", method: .get).text)
            for _ in 0..<8 {
                let token = try await client.grant().accessToken
                let signature = try Self.signature(token)
                #expect(ES256Signature.isLowS(signature), "every issued token is low-S")
                let twinS = ES256Signature.subtract(ES256Signature.order, Array(signature[32...]))
                let parts = token.split(separator: ".")
                let twin = "\(parts[0]).\(parts[1]).\(Data(Array(signature[..<32]) + twinS).base64URLEncoded())"
                #expect(twin != token)
                _ = try await jwks.verify(twin, as: Claims.self)  // The twin is a genuinely valid ECDSA signature…
                let response = try await client.me(twin)  // …which Gatehouse refuses.
                #expect(response.status == .unauthorized)
                #expect(response.errorBody?.message == "The access token's signature is not in canonical (low-S) form")
                #expect(try await client.me(token).status == .ok)
            }
        }
    }

    @Test func normalisingFlipsOnlyHighS() throws {
        let low = [UInt8](repeating: 1, count: 32) + ES256Signature.halfOrder
        #expect(ES256Signature.isLowS(low) && ES256Signature.normalized(low) == low)
        var high = low
        high[63] += 1  // n/2 + 1, just above the line
        #expect(!ES256Signature.isLowS(high))
        let flipped = ES256Signature.normalized(high)
        #expect(ES256Signature.isLowS(flipped) && flipped[..<32] == high[..<32])
        #expect(Array(flipped[32...]) == ES256Signature.halfOrder, "n − (⌊n/2⌋ + 1) = ⌊n/2⌋ for odd n")
    }

    @Test func aTokenIsNormalisedInItsSignatureAlone() throws {
        let low = [UInt8](repeating: 7, count: 32) + ES256Signature.halfOrder
        var high = low
        high[63] += 1
        let signed = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhIn0"
        let lowToken = "\(signed).\(Data(low).base64URLEncoded())"
        #expect(ES256Signature.normalizedToken(lowToken) == lowToken, "a low-S token is kept as it is")
        let normalised = ES256Signature.normalizedToken("\(signed).\(Data(high).base64URLEncoded())")
        #expect(normalised == "\(signed).\(Data(ES256Signature.normalized(high)).base64URLEncoded())")
        #expect(try ES256Signature.isLowS(Self.signature(normalised)))
        #expect(ES256Signature.normalizedToken("no-dots") == "no-dots")
    }
}
