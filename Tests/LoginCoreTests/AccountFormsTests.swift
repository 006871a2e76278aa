import Foundation
import Testing
@testable import LoginCore

/// Issue 22's screens as machines: sign-up, "Forgot password?" and the reset, with Peated's copy.
/// Whole state after every event.
@Suite struct AccountFormsTests {
    static let peated = try! ExampleConfigurations.load("002-peated")
    static let options = AccountOptions(signUp: true, passwordReset: true, requireVerifiedEmail: true)

    struct SignUpProbe {
        let form = SignUpForm(configuration: AccountFormsTests.peated, options: AccountFormsTests.options)
        var state = SignUpState()

        mutating func send(
            _ event: SignUpEvent, effects: [SignUpEffect] = [], sourceLocation: SourceLocation = #_sourceLocation,
            _ update: (inout SignUpState) -> Void = { _ in }
        ) {
            var expected = state
            update(&expected)
            let actual = form.send(event, to: &state)
            #expect(state == expected, "state after \(event)", sourceLocation: sourceLocation)
            #expect(actual.untracked == effects, "effects of \(event)", sourceLocation: sourceLocation)
        }
    }

    @Test func SU1_anEmptySubmitShowsAndAnnouncesEachFieldsError() {
        var probe = SignUpProbe()
        probe.send(.submit, effects: [
            .announce("Please enter your name"), .announce("Email is required"), .announce("Password is required"),
        ]) {
            $0.nameError = "Please enter your name"
            $0.emailError = "Email is required"
            $0.passwordError = "Password is required"
        }
        probe.send(.nameChanged("Ada")) {
            $0.name = "Ada"
            $0.nameError = nil
        }
    }

    @Test func SU2_aShortPasswordIsRefusedOnTheScreenWithTheMinimum() {
        var probe = SignUpProbe()
        probe.send(.nameChanged("Ada")) { $0.name = "Ada" }
        probe.send(.emailChanged("ada@example.com")) { $0.email = "ada@example.com" }
        probe.send(.passwordChanged("short")) { $0.password = "short" }
        probe.send(.submit, effects: [.announce("Password must be at least 8 characters")]) {
            $0.passwordError = "Password must be at least 8 characters"
        }
    }

    @Test func SU3_aValidFormSignsUpOnceThenShowsCheckYourEmail() {
        var probe = SignUpProbe()
        probe.send(.nameChanged("Ada Lovelace")) { $0.name = "Ada Lovelace" }
        probe.send(.emailChanged(" Ada@Example.com ")) { $0.email = " Ada@Example.com " }
        probe.send(.passwordChanged("a long and quiet river")) { $0.password = "a long and quiet river" }
        probe.send(.submit, effects: [.signUp(name: "Ada Lovelace", email: "ada@example.com", password: "a long and quiet river")]) {
            $0.isSubmitting = true
        }
        probe.send(.submit, effects: []) { _ in }
        probe.send(.signUpResponse(.success("ada@example.com")), effects: [
            .announce("We sent a link to ada@example.com. Open it to verify your email address."),
        ]) {
            $0.isSubmitting = false
            $0.password = ""
            $0.sentTo = "ada@example.com"
        }
    }

    @Test func SU4_theServersPasswordRefusalGoesUnderThePasswordAndOtherFailuresToTheBanner() {
        var probe = SignUpProbe()
        probe.send(.nameChanged("Ada")) { $0.name = "Ada" }
        probe.send(.emailChanged("ada@example.com")) { $0.email = "ada@example.com" }
        probe.send(.passwordChanged("password1")) { $0.password = "password1" }
        probe.send(.submit, effects: [.signUp(name: "Ada", email: "ada@example.com", password: "password1")]) { $0.isSubmitting = true }
        let common = "This password is too common. Please choose another."
        probe.send(.signUpResponse(.failure(.passwordRejected(message: common))), effects: [.announce(common)]) {
            $0.isSubmitting = false
            $0.passwordError = common
        }
        probe.send(.passwordChanged("a long and quiet river")) {
            $0.password = "a long and quiet river"
            $0.passwordError = nil
        }
        probe.send(.submit, effects: [.signUp(name: "Ada", email: "ada@example.com", password: "a long and quiet river")]) {
            $0.isSubmitting = true
        }
        probe.send(.signUpResponse(.failure(.networkUnavailable)), effects: [
            .announce("Unable to connect. Please check your internet connection."),
        ]) {
            $0.isSubmitting = false
            $0.banner = "Unable to connect. Please check your internet connection."
        }
    }

    struct ResetProbe {
        let form = PasswordResetForm(configuration: AccountFormsTests.peated, options: AccountFormsTests.options)
        var state = PasswordResetForm.State()

        mutating func send(
            _ event: PasswordResetForm.Event, effects: [PasswordResetForm.Effect] = [], sourceLocation: SourceLocation = #_sourceLocation,
            _ update: (inout PasswordResetForm.State) -> Void = { _ in }
        ) {
            var expected = state
            update(&expected)
            let actual = form.send(event, to: &state)
            #expect(state == expected, "state after \(event)", sourceLocation: sourceLocation)
            #expect(actual == effects, "effects of \(event)", sourceLocation: sourceLocation)
        }
    }

    @Test func RS1_forgotAsksForAValidEmailThenShowsTheSameNoticeForAnyAddress() {
        var probe = ResetProbe()
        probe.send(.emailChanged("not an email")) { $0.email = "not an email" }
        probe.send(.requestReset, effects: [.announce("Please enter a valid email")]) { $0.emailError = "Please enter a valid email" }
        probe.send(.emailChanged("Ada@Example.com")) {
            $0.email = "Ada@Example.com"
            $0.emailError = nil
        }
        probe.send(.requestReset, effects: [.requestReset(email: "ada@example.com")]) { $0.isSubmitting = true }
        let notice = "If an account exists for ada@example.com, we sent it a link to reset the password."
        probe.send(.requestResponse(.success("ada@example.com")), effects: [.announce(notice)]) {
            $0.isSubmitting = false
            $0.notice = notice
        }
    }

    @Test func RS2_aResetChecksTheNewPasswordThenSignsInOrShowsWhyNot() {
        var probe = ResetProbe()
        probe.send(.passwordChanged("short")) { $0.password = "short" }
        probe.send(.submitPassword, effects: [.announce("Password must be at least 8 characters")]) {
            $0.passwordError = "Password must be at least 8 characters"
        }
        probe.send(.passwordChanged("a long and quiet river")) {
            $0.password = "a long and quiet river"
            $0.passwordError = nil
        }
        probe.send(.submitPassword, effects: [.resetPassword(password: "a long and quiet river")]) { $0.isSubmitting = true }
        let expired = "This link has expired or was already used. Please request a new one."
        probe.send(.resetResponse(.failure(.linkExpired)), effects: [.announce(expired)]) {
            $0.isSubmitting = false
            $0.banner = expired
        }
        probe.send(.submitPassword, effects: [.resetPassword(password: "a long and quiet river")]) {
            $0.isSubmitting = true
            $0.banner = nil
        }
        probe.send(.resetResponse(.success(())), effects: [.announce("Your password was changed."), .navigateHome]) {
            $0.isSubmitting = false
            $0.password = ""
            $0.isDone = true
        }
    }

    @Test func AC1_peatedsAppFileTurnsOnSignUpResetAndVerifiedEmailWithItsLogo() throws {
        let url = ExampleConfigurations.root.appendingPathComponent("002-peated/gatehouse.json")
        let app = try AppConfiguration.load(from: url)
        #expect(app.accounts == Self.options)
        #expect(app.login.logo == LoginLogo(path: "logo.svg", label: "Peated logo"))
        #expect(app.login.messages.text(.forgotPassword) == "Forgot password?")
        #expect(app.login.messages.text(.signUpPrompt) + " " + app.login.messages.text(.signUpLink) == "Don't have an account? Sign up")
        #expect(AuthFailure.emailNotVerified.message(in: app.login.messages) == "Please verify your email address.")
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(AccountOptions.self, from: Data(#"{"passwordMinimumLength": 6}"#.utf8))
        }
    }
}

/// Issue 36, point 8: the account forms check a field when the person leaves it, with the same
/// checks the page receives.
@Suite("Account forms: checks on blur")
struct AccountFormBlurTests {
    @Test func signUpChecksOnlyTheFieldLeft() {
        let form = SignUpForm()
        var state = SignUpState()
        _ = form.step(.emailChanged("not-an-address"), to: &state)
        var expected = SignUpState()
        expected.email = "not-an-address"
        #expect(state == expected)
        let effects = form.step(.fieldBlurred(.email), to: &state)
        expected.emailError = "Please enter a valid email"
        #expect(state == expected)
        #expect(effects == [.announce("Please enter a valid email")])
        _ = form.step(.fieldBlurred(.password), to: &state)
        expected.passwordError = "Password is required"
        #expect(state == expected)
    }

    @Test func typingClearsTheErrorAndTheNextBlurChecksAgain() {
        let form = SignUpForm()
        var state = SignUpState()
        _ = form.step(.fieldBlurred(.name), to: &state)
        #expect(state.nameError == "Please enter your name")
        _ = form.step(.nameChanged("Ada"), to: &state)
        _ = form.step(.fieldBlurred(.name), to: &state)
        var expected = SignUpState()
        expected.name = "Ada"
        #expect(state == expected)
    }

    @Test func theChecksAreTheSubmitsChecks() {
        let form = SignUpForm()
        #expect(form.checks(for: .password).compactMap { $0.issue(with: "short") } == ["Password must be at least 8 characters"])
        #expect(FieldCheck.firstIssue(in: form.checks(for: .email), with: "  ") == "Email is required")
        #expect(FieldCheck.firstIssue(in: form.checks(for: .email), with: " a@b.co ") == nil)
        #expect(FieldCheck.firstIssue(in: form.checks(for: .password), with: String(repeating: "é", count: 600)) == "Password must be at most 1024 characters")
    }

    @Test func resetChecksThePasswordOnBlur() {
        let form = PasswordResetForm()
        var state = PasswordResetForm.State()
        _ = form.send(.passwordChanged("short"), to: &state)
        _ = form.send(.fieldBlurred(.password), to: &state)
        var expected = PasswordResetForm.State()
        expected.password = "short"
        expected.passwordError = "Password must be at least 8 characters"
        #expect(state == expected)
    }
}
