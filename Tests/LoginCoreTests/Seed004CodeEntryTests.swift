import Foundation
import Testing
@testable import LoginCore

/// The code-entry step: auto-submit, wrong codes with tries left, expiry and the resend
/// countdown driven by the host's clock, resend and "Change number". Whole state after every event.
@Suite struct Seed004CodeEntryTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let sent = TestCountries.sent

    struct Probe {
        let form = CodeEntryForm(configuration: .standard)
        var state: CodeEntryState

        init() {
            let (state, effects) = form.begin(Seed004CodeEntryTests.sent)
            self.state = state
            #expect(effects == [.focusCode, .startClock])
        }

        mutating func send(
            _ event: CodeEntryEvent, effects: [CodeEntryEffect] = [],
            sourceLocation: SourceLocation = #_sourceLocation, _ update: (inout CodeEntryState) -> Void = { _ in }
        ) {
            var expected = state
            update(&expected)
            let actual = form.send(event, to: &state)
            #expect(state == expected, "state after \(event)", sourceLocation: sourceLocation)
            #expect(actual.untracked == effects, "effects of \(event)", sourceLocation: sourceLocation)
        }

        /// Types a whole code, which submits it.
        mutating func enter(_ code: String) {
            send(.codeChanged(code), effects: [.announce("Verifying code"), .verify(verificationID: "v1", code: code)]) {
                $0.code = code
                $0.codeError = nil
                $0.isVerifying = true
            }
        }
    }

    @Test func S004_codeScreenStartsWithTheResendCountdownAndExpiry() {
        let probe = Probe()
        var expected = CodeEntryState(sent: Self.sent)
        expected.resendCountdown = "Resend code in 1:00"
        #expect(probe.state == expected)
        #expect(expected.resendCooldown == .starting(seconds: 60))
        #expect(expected.expiry == .starting(seconds: 300))
        #expect(!probe.state.isResendEnabled)
    }

    @Test func S004_aWholeCodeSubmitsItselfAndSuccessOpensHome() {
        var probe = Probe()
        probe.send(.codeChanged("12 3a")) { $0.code = "123" }
        probe.send(.submit, effects: [.announce("Enter the 6-digit code"), .shake, .focusCode]) {
            $0.codeError = "Enter the 6-digit code"
        }
        probe.enter("123456")
        probe.send(.codeChanged("1")) { _ in }
        probe.send(.verifyResponse(.success(demoSuccess)), effects: [.stopClock, .storeSession(demoSuccess), .navigateHome]) {
            $0.isVerifying = false
            $0.code = ""
            $0.codeError = nil
        }
    }

    @Test func S004_wrongCodeClearsTheFieldAndShowsTriesLeft() {
        var probe = Probe()
        probe.enter("000000")
        let error = "Incorrect code. Tries left: 4"
        probe.send(.verifyResponse(.failure(.codeIncorrect(attemptsLeft: 4))), effects: [.announce(error), .shake, .focusCode]) {
            $0.isVerifying = false
            $0.code = ""
            $0.attemptsLeft = 4
            $0.codeError = error
        }
        probe.send(.codeChanged("1")) {
            $0.code = "1"
            $0.codeError = nil
        }
    }

    @Test func S004_aBurnedCodeDisablesTheFieldUntilResend() {
        var probe = Probe()
        probe.enter("999999")
        let error = "Too many incorrect tries. Request a new code."
        probe.send(.verifyResponse(.failure(.codeAttemptsExceeded)), effects: [.announce(error), .shake]) {
            $0.isVerifying = false
            $0.code = ""
            $0.isExpired = true
            $0.codeError = error
        }
        probe.send(.codeChanged("123456")) { _ in }
        probe.send(.submit) { _ in }
    }

    @Test func S004_resendCountdownAndExpiryRunOnTheHostClock() {
        var probe = Probe()
        probe.send(.tick(Self.start)) {
            $0.resendCooldown = .until(Self.start.addingTimeInterval(60))
            $0.expiry = .until(Self.start.addingTimeInterval(300))
        }
        probe.send(.resend) { _ in }
        probe.send(.tick(Self.start.addingTimeInterval(59.2))) { $0.resendCountdown = "Resend code in 0:01" }
        probe.send(.tick(Self.start.addingTimeInterval(60))) {
            $0.resendCooldown = nil
            $0.resendCountdown = nil
        }
        #expect(probe.state.isResendEnabled)
        probe.send(.codeChanged("12")) { $0.code = "12" }
        let expired = "This code has expired. Request a new one."
        probe.send(.tick(Self.start.addingTimeInterval(300)), effects: [.announce(expired), .stopClock]) {
            $0.expiry = nil
            $0.isExpired = true
            $0.code = ""
            $0.codeError = expired
        }
    }

    @Test func S004_resendReplacesTheCodeAndRestartsBothCountdowns() {
        var probe = Probe()
        probe.send(.tick(Self.start)) {
            $0.resendCooldown = .until(Self.start.addingTimeInterval(60))
            $0.expiry = .until(Self.start.addingTimeInterval(300))
        }
        probe.send(.tick(Self.start.addingTimeInterval(61))) {
            $0.resendCooldown = nil
            $0.resendCountdown = nil
        }
        probe.send(.resend, effects: [.announce("Sending verification code"), .resend(verificationID: "v1")]) {
            $0.isResending = true
        }
        let second = PhoneCodeSent(verificationID: "v2", phoneMasked: Self.sent.phoneMasked, expiresIn: 300, resendAfter: 60, codeLength: 6)
        probe.send(.resendResponse(.success(second)), effects: [.announce("A new code was sent"), .focusCode, .startClock]) {
            $0 = CodeEntryState(sent: second)
            $0.resendCountdown = "Resend code in 1:00"
        }
        probe.send(.resend) { _ in }
    }

    @Test func S004_resendRateLimitedWaitsTheServersTime() {
        var probe = Probe()
        probe.send(.tick(Self.start.addingTimeInterval(0))) {
            $0.resendCooldown = .until(Self.start.addingTimeInterval(60))
            $0.expiry = .until(Self.start.addingTimeInterval(300))
        }
        probe.send(.tick(Self.start.addingTimeInterval(60))) {
            $0.resendCooldown = nil
            $0.resendCountdown = nil
        }
        probe.send(.resend, effects: [.announce("Sending verification code"), .resend(verificationID: "v1")]) { $0.isResending = true }
        let banner = "Too many attempts. Please try again in 10 minutes."
        probe.send(.resendResponse(.failure(.rateLimited(retryAfter: 600))), effects: [.announce(banner), .startClock]) {
            $0.isResending = false
            $0.banner = banner
            $0.resendCooldown = .starting(seconds: 600)
            $0.resendCountdown = "Resend code in 10:00"
            $0.announcesResendReady = true
        }
    }

    @Test func S004_changeNumberGoesBackUnlessVerifying() {
        var probe = Probe()
        probe.send(.changeNumber, effects: [.stopClock, .backToNumber])
        probe.enter("123456")
        probe.send(.changeNumber) { _ in }
    }
}
