import Testing
@testable import LoginCore

/// Seed 000's submission criteria, A11–A15, and the other failure outcomes.
@Suite struct Seed000SubmissionTests {
    static let credentials = Credentials(email: "user@example.com", password: "password123")

    /// A valid form, submitted: the probe is left in flight.
    static func submitted(_ configuration: LoginConfiguration = .standard) -> FormProbe {
        var probe = FormProbe(configuration)
        probe.fillValid()
        probe.send(.submit, effects: [.announce("Signing in"), .authenticate(credentials)]) {
            $0.touched = [.email, .password]
            $0.isSubmitting = true
            $0.isSubmitEnabled = false
        }
        return probe
    }

    @Test func A11_submissionShowsLoadingAndPreventsDoubleSubmission() {
        var probe = Self.submitted()
        #expect(!probe.state.areFieldsEnabled)
        probe.send(.submit)
        probe.send(.emailChanged("other@example.com"))
        probe.send(.togglePasswordVisibility)
    }

    @Test func A12_successStoresSessionAndNavigatesHome() {
        var probe = Self.submitted()
        probe.send(.loginResponse(.success(demoSuccess)), effects: [.storeSession(demoSuccess), .navigateHome]) {
            $0.isSubmitting = false
            $0.password = ""
        }
    }

    @Test func A13_invalidCredentialsClearPassword() {
        var probe = Self.submitted()
        probe.send(
            .loginResponse(.failure(.invalidCredentials)),
            effects: [.announce("Invalid email or password"), .focus(.password)]
        ) {
            $0.isSubmitting = false
            $0.password = ""
            $0.banner = "Invalid email or password"
        }
        #expect(probe.state.areFieldsEnabled)
    }

    @Test func A14_networkErrorShowsMessageAndAllowsRetry() {
        var probe = Self.submitted()
        probe.send(
            .loginResponse(.failure(.networkUnavailable)),
            effects: [.announce("Unable to connect. Please try again.")]
        ) {
            $0.isSubmitting = false
            $0.isSubmitEnabled = true
            $0.banner = "Unable to connect. Please try again."
        }
        probe.send(.submit, effects: [.announce("Signing in"), .authenticate(Self.credentials)]) {
            $0.isSubmitting = true
            $0.isSubmitEnabled = false
            $0.banner = nil
        }
    }

    @Test func A15_serverErrorShowsMessage() {
        var probe = Self.submitted()
        probe.send(
            .loginResponse(.failure(.serverError(status: 500))),
            effects: [.announce("Something went wrong. Please try again.")]
        ) {
            $0.isSubmitting = false
            $0.isSubmitEnabled = true
            $0.banner = "Something went wrong. Please try again."
        }
    }

    @Test(arguments: [
        (AuthFailure.timeout, "The request timed out. Please try again."),
        (.accountLocked, "Your account has been locked. Please contact support."),
        (.emailNotVerified, "Please verify your email address."),
        (.rateLimited(retryAfter: nil), "Too many attempts. Please try again in a few seconds."),
    ])
    func distinctFailureOutcomesKeepThePassword(failure: AuthFailure, message: String) {
        var probe = Self.submitted()
        probe.send(.loginResponse(.failure(failure)), effects: [.announce(message)]) {
            $0.isSubmitting = false
            $0.isSubmitEnabled = true
            $0.banner = message
        }
    }

    @Test func US2_5_bannerClearsWhenUserCorrectsCredentials() {
        var probe = Self.submitted()
        probe.send(.loginResponse(.failure(.invalidCredentials)), effects: [.announce("Invalid email or password"), .focus(.password)]) {
            $0.isSubmitting = false
            $0.password = ""
            $0.banner = "Invalid email or password"
        }
        probe.send(.passwordChanged("password124")) {
            $0.password = "password124"
            $0.banner = nil
            $0.isSubmitEnabled = true
        }
    }

    @Test func FR011_emailIsTrimmedAndLowercasedWhenSent() {
        var probe = FormProbe()
        probe.fillValid(email: "  User@Example.COM ")
        let sent = Credentials(email: "user@example.com", password: "password123")
        probe.send(.submit, effects: [.announce("Signing in"), .authenticate(sent)]) {
            $0.touched = [.email, .password]
            $0.isSubmitting = true
            $0.isSubmitEnabled = false
        }
    }

    @Test func strayResponseWithoutRequestIsIgnored() {
        var probe = FormProbe()
        probe.send(.loginResponse(.failure(.invalidCredentials)))
    }

    @Test func credentialsAndTokensNeverPrintSecrets() {
        let text = "\(Self.credentials) \(demoSuccess.tokens) \(String(reflecting: demoSuccess.tokens))"
        #expect(!text.contains("password123"))
        #expect(!text.contains("a.b.c"))
        #expect(text.contains("<redacted>"))
    }
}
