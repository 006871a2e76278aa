import Crypto
import Foundation
import GatehouseCore
import Testing

/// The code arithmetic phone and mail codes share.
@Suite struct OneTimeCodeTests {
    let code = OneTimeCode(key: SymmetricKey(size: .bits256), maximumAttempts: 5)
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func generatedCodesAreDigitsOfTheAskedLength() {
        let codes = (0..<200).map { _ in OneTimeCode.generate(length: 6) }
        #expect(codes.allSatisfy { $0.count == 6 && $0.allSatisfy(\.isNumber) })
        #expect(Set(codes).count > 150)
    }

    @Test func aMACMatchesOnlyItsOwnCodeAndSecret() {
        let mac = code.mac(id: "ghv_a", code: "123456")
        #expect(code.matches("123456", id: "ghv_a", mac: mac))
        #expect(!code.matches("123457", id: "ghv_a", mac: mac))
        #expect(!code.matches("123456", id: "ghv_b", mac: mac))
        #expect(!code.matches("123456", id: "ghv_a", mac: nil))
        #expect(!code.matches("123456", id: "ghv_a", mac: "not hex"))
        let other = OneTimeCode(key: SymmetricKey(size: .bits256), maximumAttempts: 5)
        #expect(!other.matches("123456", id: "ghv_a", mac: mac))
    }

    @Test func digestsAreWrittenAsLowerCaseHexAndReadBackInEitherCase() {
        #expect([UInt8]([0x00, 0x0F, 0xA5, 0xFF]).hexEncoded == "000fa5ff")
        #expect(SHA256.hash(data: Data("abc".utf8)).hexEncoded == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Data(hex: "000FA5ff") == Data([0x00, 0x0F, 0xA5, 0xFF]))
    }

    @Test func aWrongCodeSaysTheTriesLeftUntilTheLastBurnsIt() {
        #expect(code.wrongCode(attempts: 1) == .codeRejected(.incorrect(attemptsLeft: 4)))
        #expect(code.wrongCode(attempts: 4) == .codeRejected(.incorrect(attemptsLeft: 1)))
        #expect(code.wrongCode(attempts: 5) == .codeRejected(.exhausted))
    }

    @Test func anUnclaimableCodeIsBurnedOnlyWhileStillLive() {
        let later = now.addingTimeInterval(60)
        #expect(code.unclaimable(consumed: false, expiresAt: later, attempts: 5, now: now) == .codeRejected(.exhausted))
        #expect(code.unclaimable(consumed: false, expiresAt: now, attempts: 5, now: now) == .codeRejected(.expired))
        #expect(code.unclaimable(consumed: true, expiresAt: later, attempts: 5, now: now) == .codeRejected(.expired))
        #expect(code.unclaimable(consumed: false, expiresAt: nil, attempts: 0, now: now) == .codeRejected(.expired))
    }
}
