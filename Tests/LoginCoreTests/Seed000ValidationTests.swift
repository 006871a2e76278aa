import Testing
@testable import LoginCore

/// Seed 000's form display and validation criteria, A1 and A3–A10.
@Suite struct Seed000ValidationTests {
    @Test func A1_emptyFormHasSubmitDisabled() {
        let probe = FormProbe()
        var expected = LoginState()
        expected.isSubmitEnabled = false
        #expect(probe.state == expected)
    }

    @Test func A3_emptyEmailRejectedOnBlur() {
        var probe = FormProbe()
        probe.send(.emailBlurred, effects: [.announce("Email is required")]) {
            $0.touched = [.email]
            $0.emailError = "Email is required"
        }
    }

    @Test func A3_emptyEmailRejectedOnSubmit() {
        var probe = FormProbe()
        probe.send(.passwordChanged("password123")) { $0.password = "password123" }
        probe.send(.submit, effects: [.announce("Email is required"), .focus(.email)]) {
            $0.touched = [.email, .password]
            $0.emailError = "Email is required"
        }
    }

    @Test func A4_invalidEmailFormatRejected() {
        var probe = FormProbe()
        probe.send(.emailChanged("notanemail")) { $0.email = "notanemail" }
        probe.send(.emailBlurred, effects: [.announce("Please enter a valid email")]) {
            $0.touched = [.email]
            $0.emailError = "Please enter a valid email"
        }
    }

    @Test func A5_validEmailAccepted() {
        var probe = FormProbe()
        probe.send(.emailChanged("user@example.com")) { $0.email = "user@example.com" }
        probe.send(.emailBlurred) { $0.touched = [.email] }
        #expect(probe.state.emailError == nil)
    }

    @Test func A6_emptyPasswordRejected() {
        var probe = FormProbe()
        probe.send(.passwordBlurred, effects: [.announce("Password is required")]) {
            $0.touched = [.password]
            $0.passwordError = "Password is required"
        }
    }

    /// The seed's example "abc123" is 6 characters although it says 7; both lengths are checked.
    @Test(arguments: ["abc123", "abc1234"])
    func A7_shortPasswordRejected(password: String) {
        var probe = FormProbe()
        probe.send(.passwordChanged(password)) { $0.password = password }
        probe.send(.passwordBlurred, effects: [.announce("Password must be at least 8 characters")]) {
            $0.touched = [.password]
            $0.passwordError = "Password must be at least 8 characters"
        }
    }

    @Test func A8_validPasswordAccepted() {
        var probe = FormProbe()
        probe.send(.passwordChanged("securepassword123")) { $0.password = "securepassword123" }
        probe.send(.passwordBlurred) { $0.touched = [.password] }
        #expect(probe.state.passwordError == nil)
    }

    @Test func A9_passwordVisibilityToggles() {
        var probe = FormProbe()
        probe.send(.passwordChanged("secret")) { $0.password = "secret" }
        probe.send(.togglePasswordVisibility) { $0.isPasswordVisible = true }
        probe.send(.togglePasswordVisibility) { $0.isPasswordVisible = false }
    }

    @Test func A10_validFormEnablesSubmit() {
        var probe = FormProbe()
        probe.send(.emailChanged("user@example.com")) { $0.email = "user@example.com" }
        #expect(!probe.state.isSubmitEnabled)
        probe.send(.passwordChanged("password123")) {
            $0.password = "password123"
            $0.isSubmitEnabled = true
        }
    }

    @Test func US2_5_errorClearsAsSoonAsCorrected() {
        var probe = FormProbe()
        probe.send(.emailChanged("user@")) { $0.email = "user@" }
        probe.send(.emailBlurred, effects: [.announce("Please enter a valid email")]) {
            $0.touched = [.email]
            $0.emailError = "Please enter a valid email"
        }
        probe.send(.emailChanged("user@example.co")) {
            $0.email = "user@example.co"
            $0.emailError = nil
        }
        // Once corrected, typing does not re-validate until the next blur or submit.
        probe.send(.emailChanged("user@example.c")) { $0.email = "user@example.c" }
    }

    @Test func overlongPasswordGetsItsOwnMessageAndIsNeverTruncated() {
        var probe = FormProbe()
        let long = String(repeating: "p", count: 129)
        probe.send(.passwordChanged(long)) { $0.password = long }
        probe.send(.passwordBlurred, effects: [.announce("Password must be at most 128 characters")]) {
            $0.touched = [.password]
            $0.passwordError = "Password must be at most 128 characters"
        }
        #expect(probe.state.password.count == 129)
    }

    @Test func clearButtonEmptiesFieldAndKeepsFocus() {
        var probe = FormProbe()
        probe.fillValid()
        probe.send(.clear(.email), effects: [.focus(.email)]) {
            $0.email = ""
            $0.isSubmitEnabled = false
        }
    }
}
