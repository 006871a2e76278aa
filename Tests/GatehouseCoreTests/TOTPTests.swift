import Crypto
import Foundation
import Testing
@testable import GatehouseCore

/// Issue 37's authenticator-app codes: RFC 6238 Appendix B's vectors, the window of one step
/// either side, and the secret's base32 and `otpauth://` forms.
@Suite("TOTP (RFC 6238)")
struct TOTPTests {
    static let sha1 = Array("12345678901234567890".utf8)
    static let sha256 = Array("12345678901234567890123456789012".utf8)
    static let sha512 = Array("1234567890123456789012345678901234567890123456789012345678901234".utf8)

    @Test(arguments: [
        (59, "94287082", "46119246", "90693936"),
        (1_111_111_109, "07081804", "68084774", "25091201"),
        (1_111_111_111, "14050471", "67062674", "99943326"),
        (1_234_567_890, "89005924", "91819424", "93441116"),
        (2_000_000_000, "69279037", "90698825", "38618901"),
        (20_000_000_000, "65353130", "77737706", "47863826"),
    ])
    func rfc6238AppendixB(time: Int, sha1: String, sha256: String, sha512: String) {
        let at = Date(timeIntervalSince1970: TimeInterval(time))
        #expect(TOTP(secret: Self.sha1, algorithm: .sha1, digits: 8).code(at: at) == sha1)
        #expect(TOTP(secret: Self.sha256, algorithm: .sha256, digits: 8).code(at: at) == sha256)
        #expect(TOTP(secret: Self.sha512, algorithm: .sha512, digits: 8).code(at: at) == sha512)
    }

    @Test func sixDigitsAreTheLastSixOfTheTruncation() {
        // RFC 4226 Appendix D: HOTP of "12345678901234567890" at counter 1 is 287082.
        #expect(TOTP(secret: Self.sha1).code(forStep: 1) == "287082")
    }

    @Test func oneStepEitherSideIsAcceptedAndTwoAreNot() {
        let totp = TOTP(secret: Self.sha1)
        let now = Date(timeIntervalSince1970: 1_800_000_015)
        let step = totp.step(at: now)
        #expect(totp.match(totp.code(forStep: step), at: now) == step)
        #expect(totp.match(totp.code(forStep: step - 1), at: now) == step - 1)
        #expect(totp.match(totp.code(forStep: step + 1), at: now) == step + 1)
        #expect(totp.match(totp.code(forStep: step - 2), at: now) == nil)
        #expect(totp.match(totp.code(forStep: step + 2), at: now) == nil)
        #expect(totp.match("", at: now) == nil)
        #expect(totp.match(totp.code(forStep: step) + "0", at: now) == nil)
    }

    @Test func base32IsRFC4648WithoutPadding() {
        #expect(Base32.encode(Array("foobar".utf8)) == "MZXW6YTBOI")
        #expect(Base32.encode(Array("f".utf8)) == "MY")
        #expect(Base32.decode("mzxw 6ytb oi======").map { String(decoding: $0, as: UTF8.self) } == "foobar")
        #expect(Base32.decode("MZXW1") == nil)
        let secret = TOTP.newSecret()
        #expect(secret.count == 20 && Base32.decode(Base32.encode(secret)) == secret)
    }

    @Test func theURIIsWhatAuthenticatorAppsScan() {
        let totp = TOTP(secret: Array("foobar".utf8))
        #expect(totp.uri(issuer: "Peated", account: "ada@example.com") == "otpauth://totp/Peated:ada%40example.com?secret=MZXW6YTBOI&issuer=Peated")
        #expect(totp.uri(issuer: "Urban Nest", account: "+91 98765") == "otpauth://totp/Urban%20Nest:+91%2098765?secret=MZXW6YTBOI&issuer=Urban%20Nest")
    }
}

@Suite("Factor secrets sealed under the key-encryption key")
struct FactorSecretTests {
    @Test func aSealedSecretOpensOnlyForItsFactorUnderItsKey() throws {
        let kek = SymmetricKey(size: .bits256)
        let secret = TOTP.newSecret()
        let sealed = try FactorSecret.seal(secret, factorID: "f1", kek: kek)
        #expect(!sealed.contains(Base32.encode(secret)))
        #expect(FactorSecret.open(sealed, factorID: "f1", kek: kek) == secret)
        #expect(FactorSecret.open(sealed, factorID: "f2", kek: kek) == nil, "copied onto another factor's row")
        #expect(FactorSecret.open(sealed, factorID: "f1", kek: SymmetricKey(size: .bits256)) == nil)
        #expect(FactorSecret.open("not base64url!", factorID: "f1", kek: kek) == nil)
    }
}
