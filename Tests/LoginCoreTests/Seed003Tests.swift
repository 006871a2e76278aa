import Testing
@testable import LoginCore

/// Seed 003's validation, error-message, visibility-toggle, screen-reader and session stories,
/// run against its example configuration.
@Suite struct Seed003Tests {
    let configuration: LoginConfiguration

    init() throws {
        configuration = try ExampleConfigurations.load("003-peer-mentor")
    }

    @Test func S003_invalidEmailOnSubmitShowsInlineErrorAndSendsNothing() {
        var probe = FormProbe(configuration)
        #expect(probe.state.isSubmitEnabled, "validateOnSubmit keeps the button enabled")
        probe.send(.emailChanged("notanemail")) { $0.email = "notanemail" }
        probe.send(.passwordChanged("hunter2hunter2")) { $0.password = "hunter2hunter2" }
        probe.send(.submit, effects: [.announce("Please enter a valid email address"), .focus(.email)]) {
            $0.touched = [.email, .password]
            $0.emailError = "Please enter a valid email address"
        }
    }

    @Test func S003_emptyFieldsOnSubmitShowRequiredErrors() {
        var probe = FormProbe(configuration)
        probe.send(
            .submit,
            effects: [.announce("Email address is required"), .announce("Password is required"), .focus(.email)]
        ) {
            $0.touched = [.email, .password]
            $0.emailError = "Email address is required"
            $0.passwordError = "Password is required"
        }
    }

    @Test func S003_incorrectCredentialsShowPlainLanguageMessage() {
        var probe = FormProbe(configuration)
        probe.fillValid()
        probe.send(.submit, effects: [.announce("Signing in"), .authenticate(Seed000SubmissionTests.credentials)]) {
            $0.touched = [.email, .password]
            $0.isSubmitting = true
            $0.isSubmitEnabled = false
        }
        let message = "Incorrect email or password. Please try again."
        probe.send(.loginResponse(.failure(.invalidCredentials)), effects: [.announce(message), .focus(.password)]) {
            $0.isSubmitting = false
            $0.isSubmitEnabled = true
            $0.password = ""
            $0.banner = message
        }
    }

    @Test func S003_timeoutShowsConnectionMessage() {
        let message = AuthFailure.timeout.message(in: configuration.messages)
        #expect(message == "Unable to connect. Check your internet connection and try again.")
    }

    @Test func S003_expiredSessionLandsOnLoginWithMessage() {
        var probe = FormProbe(configuration)
        let message = "Your session has expired. Please sign in again."
        probe.send(.sessionEnded(.sessionExpired), effects: [.announce(message)]) { $0.banner = message }
    }

    @Test func S003_focusOrderIsHeaderEmailPasswordToggleButton() {
        let form = LoginForm(configuration: configuration)
        let order = form.accessibility(of: form.initialState()).map(\.id)
        #expect(order == [.header, .email, .password, .visibilityToggle, .submit])
    }

    @Test func S003_emailFieldAnnouncesLabelRoleAndValue() {
        var probe = FormProbe(configuration)
        probe.send(.emailChanged("sam@example.org")) { $0.email = "sam@example.org" }
        let email = probe.form.accessibility(of: probe.state)[1]
        #expect(email.spokenText == "Email address, text field, sam@example.org")
    }

    @Test func S003_passwordFieldAnnouncesSecureRoleAndNeverItsValue() {
        var probe = FormProbe(configuration)
        probe.send(.passwordChanged("hunter2hunter2")) { $0.password = "hunter2hunter2" }
        let password = probe.form.accessibility(of: probe.state)[2]
        #expect(password.spokenText == "Password, secure text field")
    }

    @Test func S003_eyeToggleRevealsAndHidesPassword() {
        var probe = FormProbe(configuration)
        probe.send(.passwordChanged("hunter2hunter2")) { $0.password = "hunter2hunter2" }
        probe.send(.togglePasswordVisibility) { $0.isPasswordVisible = true }
        let shown = probe.form.accessibility(of: probe.state)
        #expect(shown[2] == AccessibilityElement(id: .password, role: .textField, label: "Password", value: "hunter2hunter2"))
        #expect(shown[3] == AccessibilityElement(id: .visibilityToggle, role: .button, label: "Hide password", isPressed: true))
        probe.send(.togglePasswordVisibility) { $0.isPasswordVisible = false }
        let hidden = probe.form.accessibility(of: probe.state)
        #expect(hidden[3] == AccessibilityElement(id: .visibilityToggle, role: .button, label: "Show password", isPressed: false))
    }
}
