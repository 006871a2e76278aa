import Foundation
import Testing
@testable import LoginCore

/// Issue 39's "Email me a sign-in code" as a machine, with Peated's copy: whole state after every event.
@Suite struct EmailCodeFormTests {
    struct Probe {
        let form = EmailCodeForm(configuration: AccountFormsTests.peated, options: AccountFormsTests.options)
        var state = EmailCodeState()

        mutating func send(
            _ event: EmailCodeEvent, effects: [EmailCodeEffect] = [], sourceLocation: SourceLocation = #_sourceLocation,
            _ update: (inout EmailCodeState) -> Void = { _ in }
        ) {
            var expected = state
            update(&expected)
            let actual = form.send(event, to: &state)
            #expect(state == expected, "state after \(event)", sourceLocation: sourceLocation)
            #expect(actual == effects, "effects of \(event)", sourceLocation: sourceLocation)
        }
    }

    static let success = LoginSuccess(
        user: SignedInUser(id: "1", email: "ada@example.com", firstName: "Ada", lastName: ""),
        tokens: SessionTokens(accessToken: "a", refreshToken: "r", expiresIn: 900)
    )

    /// A probe whose code went to ada@example.com.
    static func sent() -> Probe {
        var probe = Probe()
        probe.send(.emailChanged(" Ada@Example.com ")) { $0.email = " Ada@Example.com " }
        probe.send(.requestCode, effects: [.requestCode(email: "ada@example.com")]) { $0.isSending = true }
        let notice = "We sent a 6-digit code to ada@example.com. It expires in 10 minutes."
        probe.send(.requestResponse(.success("ada@example.com")), effects: [.announce(notice), .focus(.code)]) {
            $0.isSending = false
            $0.sentTo = "ada@example.com"
            $0.notice = notice
        }
        return probe
    }

    @Test func EM1_anEmptyOrInvalidAddressIsRefusedOnTheScreenAndNothingIsSent() {
        var probe = Probe()
        probe.send(.requestCode, effects: [.announce("Email is required"), .focus(.email)]) { $0.emailError = "Email is required" }
        probe.send(.emailChanged("ada@")) {
            $0.email = "ada@"
            $0.emailError = nil
        }
        probe.send(.fieldBlurred(.email), effects: [.announce("Please enter a valid email")]) { $0.emailError = "Please enter a valid email" }
    }

    @Test func EM2_sixDigitsSubmitThemselvesOnceAndASuccessGoesHome() {
        var probe = Self.sent()
        probe.send(.codeChanged("12 34")) { $0.code = "1234" }
        probe.send(.codeChanged("123456789"), effects: [.announce("Verifying code"), .verifyCode(email: "ada@example.com", code: "123456")]) {
            $0.code = "123456"
            $0.isVerifying = true
        }
        probe.send(.submitCode, effects: []) { _ in }
        probe.send(.verifyResponse(.success(Self.success)), effects: [.storeSession(Self.success), .navigateHome]) {
            $0.isVerifying = false
            $0.code = ""
        }
    }

    @Test func EM3_aWrongCodeClearsTheFieldAndSaysTheTriesLeftAndAnExpiredOneAsksForANewCode() {
        var probe = Self.sent()
        probe.send(.submitCode, effects: [.announce("Enter the 6-digit code"), .focus(.code)]) { $0.codeError = "Enter the 6-digit code" }
        probe.send(.codeChanged("000000"), effects: [.announce("Verifying code"), .verifyCode(email: "ada@example.com", code: "000000")]) {
            $0.code = "000000"
            $0.codeError = nil
            $0.isVerifying = true
        }
        probe.send(.verifyResponse(.failure(.codeIncorrect(attemptsLeft: 4))), effects: [.announce("Incorrect code. Tries left: 4"), .focus(.code)]) {
            $0.isVerifying = false
            $0.code = ""
            $0.attemptsLeft = 4
            $0.codeError = "Incorrect code. Tries left: 4"
        }
        probe.send(.codeChanged("111111"), effects: [.announce("Verifying code"), .verifyCode(email: "ada@example.com", code: "111111")]) {
            $0.code = "111111"
            $0.codeError = nil
            $0.isVerifying = true
        }
        let expired = AuthFailure.codeExpired.message(in: AccountFormsTests.peated.messages)
        probe.send(.verifyResponse(.failure(.codeExpired)), effects: [.announce(expired)]) {
            $0.isVerifying = false
            $0.code = ""
            $0.isExpired = true
            $0.attemptsLeft = nil
            $0.codeError = expired
        }
        probe.send(.codeChanged("222222")) { _ in }
        probe.send(.requestCode, effects: [.requestCode(email: "ada@example.com")]) { $0.isSending = true }
    }

    @Test func EM4_aRefusedRequestShowsTheWaitAndChangingTheEmailStartsOver() {
        var probe = Self.sent()
        probe.send(.changeEmail, effects: [.focus(.email)]) { $0 = EmailCodeState(email: " Ada@Example.com ") }
        probe.send(.requestCode, effects: [.requestCode(email: "ada@example.com")]) { $0.isSending = true }
        let wait = AccountFormsTests.peated.messages.rateLimitedText(seconds: 42)
        probe.send(.requestResponse(.failure(.resendTooSoon(retryAfter: 42))), effects: [.announce(wait)]) {
            $0.isSending = false
            $0.banner = wait
        }
    }
}
