import Foundation
import Testing
@testable import LoginCore

/// Each seed app's example configuration loads and carries that seed's copy word for word.
@Suite struct ExampleConfigurationTests {
    /// Renders the screen-visible copy of a configuration for word-for-word comparison.
    static func copy(_ configuration: LoginConfiguration) -> [String: String] {
        let m = configuration.messages
        let rules = FieldRules(passwordMinimumLength: configuration.rules.passwordMinimumLength)
        return [
            "submit": m.text(.submit),
            "emailRequired": FieldIssue.required.message(for: .email, in: m),
            "emailInvalid": FieldIssue.invalidFormat.message(for: .email, in: m),
            "passwordRequired": FieldIssue.required.message(for: .password, in: m),
            "passwordTooShort": rules.validatePassword("abc").map { $0.message(for: .password, in: m) } ?? "(none)",
            "invalidCredentials": AuthFailure.invalidCredentials.message(in: m),
            "network": AuthFailure.networkUnavailable.message(in: m),
            "timeout": AuthFailure.timeout.message(in: m),
            "server": AuthFailure.serverError(status: 500).message(in: m),
            "locked": AuthFailure.accountLocked.message(in: m),
            "unverified": AuthFailure.emailNotVerified.message(in: m),
            "expired": AuthFailure.sessionExpired.message(in: m),
        ]
    }

    @Test func S000_genericExampleIsSeed000Copy() throws {
        var configuration = try ExampleConfigurations.load("000-generic")
        #expect(configuration.logo == LoginLogo(path: "logo.svg", label: "Gatehouse logo"), "each example carries its own mark")
        configuration.logo = nil
        #expect(configuration == .standard)
        let copy = Self.copy(configuration)
        #expect(copy["submit"] == "Log In")
        #expect(copy["emailRequired"] == "Email is required")
        #expect(copy["emailInvalid"] == "Please enter a valid email")
        #expect(copy["passwordRequired"] == "Password is required")
        #expect(copy["passwordTooShort"] == "Password must be at least 8 characters")
        #expect(copy["invalidCredentials"] == "Invalid email or password")
        #expect(copy["network"] == "Unable to connect. Please try again.")
        #expect(copy["server"] == "Something went wrong. Please try again.")
    }

    @Test func S001_projectsExampleIsSeed001Copy() throws {
        let configuration = try ExampleConfigurations.load("001-projects")
        let copy = Self.copy(configuration)
        #expect(copy["submit"] == "Sign In")
        #expect(copy["invalidCredentials"] == "Invalid email or password")
        #expect(copy["network"] == "Network error. Please check your connection")
        // FR-003: only a non-empty password; complexity belongs to registration.
        #expect(copy["passwordTooShort"] == "(none)")
        #expect(configuration.submitPolicy == .disabledUntilValid)
    }

    @Test func S002_peatedExampleIsSeed002Copy() throws {
        let configuration = try ExampleConfigurations.load("002-peated")
        let copy = Self.copy(configuration)
        #expect(configuration.appName == "Peated")
        #expect(configuration.messages.text(.title) == "Welcome back to Peated")
        #expect(configuration.messages.text(.subtitle) == "Track and share your journey")
        #expect(configuration.messages.text(.emailPlaceholder) == "you@example.com")
        #expect(copy["submit"] == "Sign In")
        #expect(copy["network"] == "Unable to connect. Please check your internet connection.")
        #expect(copy["timeout"] == "Request timed out. Please try again.")
        #expect(copy["server"] == "Something went wrong. Please try again later.")
        #expect(copy["invalidCredentials"] == "Invalid email or password.")
        #expect(copy["locked"] == "Your account has been locked. Please contact support.")
        #expect(copy["unverified"] == "Please verify your email address.")
        #expect(copy["passwordTooShort"] == "(none)")
    }

    @Test func S003_peerMentorExampleIsSeed003Copy() throws {
        let configuration = try ExampleConfigurations.load("003-peer-mentor")
        let copy = Self.copy(configuration)
        #expect(configuration.submitPolicy == .validateOnSubmit)
        #expect(configuration.messages.text(.emailLabel) == "Email address")
        #expect(copy["emailRequired"] == "Email address is required")
        #expect(copy["emailInvalid"] == "Please enter a valid email address")
        #expect(copy["passwordRequired"] == "Password is required")
        #expect(copy["invalidCredentials"] == "Incorrect email or password. Please try again.")
        #expect(copy["timeout"] == "Unable to connect. Check your internet connection and try again.")
        #expect(copy["expired"] == "Your session has expired. Please sign in again.")
    }

    @Test func unknownMessageKeyIsRejected() {
        let json = Data(#"{"messages": {"sumbit": "Go"}}"#.utf8)
        #expect(throws: (any Error).self) { try JSONDecoder().decode(LoginConfiguration.self, from: json) }
    }

    @Test func unknownConfigurationKeyIsRejected() {
        let json = Data(#"{"submitPolicy": "disabledUntilValid", "colour": "red"}"#.utf8)
        #expect(throws: (any Error).self) { try JSONDecoder().decode(LoginConfiguration.self, from: json) }
    }

    @Test func missingKeysKeepSeed000Defaults() throws {
        let configuration = try JSONDecoder().decode(LoginConfiguration.self, from: Data("{}".utf8))
        #expect(configuration == .standard)
    }
}
