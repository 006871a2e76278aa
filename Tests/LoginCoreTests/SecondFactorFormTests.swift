import Foundation
import Testing
@testable import LoginCore

/// Issue 37's second step: a code submits itself when whole, a wrong one says the tries left,
/// five end the challenge, the recovery code and passkey ways, and the analytics events.
/// Whole state after every event.
@Suite struct SecondFactorFormTests {
    static let success = demoSuccess

    struct Probe {
        let form = SecondFactorForm(configuration: .standard)
        var state = SecondFactorState(offersRecoveryCodes: true, offersPasskey: true)
        var tracked: [AnalyticsEvent] = []

        mutating func send(
            _ event: SecondFactorEvent, effects: [SecondFactorEffect] = [],
            sourceLocation: SourceLocation = #_sourceLocation, _ update: (inout SecondFactorState) -> Void = { _ in }
        ) {
            var expected = state
            update(&expected)
            let actual = form.send(event, to: &state)
            tracked += actual.trackedEvents
            #expect(state == expected, "state after \(event)", sourceLocation: sourceLocation)
            #expect(actual.filter { $0.tracked == nil } == effects, "effects of \(event)", sourceLocation: sourceLocation)
        }
    }

    @Test func aWholeCodeSubmitsItselfAndAWrongOneSaysTheTriesLeft() {
        var probe = Probe()
        probe.send(.appeared, effects: [.focusCode])
        probe.send(.codeChanged("12a3")) { $0.code = "123" }
        probe.send(.submit, effects: [.announce("Enter the 6-digit code from your authenticator app"), .shake, .focusCode]) {
            $0.codeError = "Enter the 6-digit code from your authenticator app"
        }
        probe.send(.codeChanged("123 456"), effects: [.announce("Verifying code"), .verify(.authenticatorCode("123456"))]) {
            $0.code = "123456"
            $0.codeError = nil
            $0.isVerifying = true
            $0.answeredWith = "totp"
        }
        let wrong = "That code didn't work. Check your authenticator app and try again. 4 tries left"
        probe.send(.verifyResponse(.failure(.codeIncorrect(attemptsLeft: 4))), effects: [.announce(wrong), .shake, .focusCode]) {
            $0.code = ""
            $0.isVerifying = false
            $0.answeredWith = nil
            $0.attemptsLeft = 4
            $0.codeError = wrong
        }
        probe.send(.codeChanged("654321"), effects: [.announce("Verifying code"), .verify(.authenticatorCode("654321"))]) {
            $0.code = "654321"
            $0.codeError = nil
            $0.isVerifying = true
            $0.answeredWith = "totp"
        }
        probe.send(.verifyResponse(.success(SecondFactorFormTests.success)), effects: [.storeSession(SecondFactorFormTests.success), .navigateHome]) {
            $0.code = ""
            $0.isVerifying = false
            $0.answeredWith = nil
        }
        #expect(probe.tracked == [.mfaChallengeShown, .mfaFailed(.codeIncorrect(attemptsLeft: 4)), .mfaVerified(method: "totp")])
    }

    @Test func theFifthWrongCodeEndsTheChallenge() {
        var probe = Probe()
        probe.send(.codeChanged("000000"), effects: [.announce("Verifying code"), .verify(.authenticatorCode("000000"))]) {
            $0.code = "000000"
            $0.isVerifying = true
            $0.answeredWith = "totp"
        }
        let ended = "Too many wrong codes. Please sign in again."
        probe.send(.verifyResponse(.failure(.codeAttemptsExceeded)), effects: [.announce(ended), .shake]) {
            $0.code = ""
            $0.isVerifying = false
            $0.answeredWith = nil
            $0.isEnded = true
            $0.banner = ended
        }
        probe.send(.codeChanged("111111"))
        probe.send(.useRecoveryCode)
        #expect(probe.tracked == [.mfaFailed(.codeAttemptsExceeded)])
    }

    @Test func aRecoveryCodeInsteadThenAPasskey() {
        var probe = Probe()
        probe.send(.useRecoveryCode, effects: [.announce("Enter one of your recovery codes"), .focusCode]) { $0.mode = .recoveryCode }
        probe.send(.codeChanged("abcde-fghjk")) {
            $0.code = "abcde-fghjk"
            $0.isVerifyEnabled = true
        }
        probe.send(.submit, effects: [.announce("Verifying code"), .verify(.recoveryCode("abcde-fghjk"))]) {
            $0.isVerifying = true
            $0.isVerifyEnabled = false
            $0.answeredWith = "recovery_code"
        }
        probe.send(.verifyResponse(.success(SecondFactorFormTests.success)), effects: [.storeSession(SecondFactorFormTests.success), .navigateHome]) {
            $0.code = ""
            $0.isVerifying = false
            $0.answeredWith = nil
        }
        #expect(probe.tracked == [.mfaRecoveryUsed, .mfaVerified(method: "recovery_code")])

        var other = Probe()
        other.send(.usePasskey, effects: [.assertPasskey]) {
            $0.isVerifying = true
            $0.answeredWith = "passkey"
        }
        other.send(.verifyResponse(.failure(.passkeyCancelled))) {
            $0.isVerifying = false
            $0.answeredWith = nil
        }
        #expect(other.tracked.isEmpty, "a cancelled passkey prompt is no failure")
        other.send(.usePasskey, effects: [.assertPasskey]) {
            $0.isVerifying = true
            $0.answeredWith = "passkey"
        }
        other.send(.verifyResponse(.success(SecondFactorFormTests.success)), effects: [.storeSession(SecondFactorFormTests.success), .navigateHome]) {
            $0.isVerifying = false
            $0.answeredWith = nil
        }
        #expect(other.tracked == [.mfaVerified(method: "passkey")])
    }
}
