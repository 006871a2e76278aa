import Testing
@testable import LoginCore

/// Seed 000 R8 and A18: every element announces its purpose, errors and loading are announced.
@Suite struct Seed000AccessibilityTests {
    @Test func A18_everyElementHasLabelAndRole() {
        let form = LoginForm()
        let elements = form.accessibility(of: form.initialState())
        #expect(elements == [
            AccessibilityElement(id: .header, role: .header, label: "Gatehouse"),
            AccessibilityElement(id: .email, role: .textField, label: "Email", value: ""),
            AccessibilityElement(id: .password, role: .secureTextField, label: "Password"),
            AccessibilityElement(id: .visibilityToggle, role: .button, label: "Show password", isPressed: false),
            AccessibilityElement(id: .submit, role: .button, label: "Log In", isEnabled: false),
        ])
    }

    @Test func A18_fieldErrorsAreDescribedAndAnnounced() {
        var probe = FormProbe()
        probe.send(.emailChanged("notanemail")) { $0.email = "notanemail" }
        probe.send(.emailBlurred, effects: [.announce("Please enter a valid email")]) {
            $0.touched = [.email]
            $0.emailError = "Please enter a valid email"
        }
        let email = probe.form.accessibility(of: probe.state)[1]
        #expect(email.error == "Please enter a valid email")
        #expect(email.spokenText == "Email, text field, notanemail, Please enter a valid email")
    }

    @Test func A18_loadingStateIsAnnouncedAndDescribed() {
        let probe = Seed000SubmissionTests.submitted()
        let elements = probe.form.accessibility(of: probe.state)
        #expect(elements[4] == AccessibilityElement(
            id: .submit, role: .button, label: "Log In", value: "Signing in", isEnabled: false, isBusy: true
        ))
        #expect(elements[1].isEnabled == false && elements[2].isEnabled == false)
    }

    @Test func A18_failureBannerIsAnAlertAfterTheButton() {
        var probe = Seed000SubmissionTests.submitted()
        probe.send(.loginResponse(.failure(.networkUnavailable)), effects: [.announce("Unable to connect. Please try again.")]) {
            $0.isSubmitting = false
            $0.isSubmitEnabled = true
            $0.banner = "Unable to connect. Please try again."
        }
        let last = probe.form.accessibility(of: probe.state).last
        #expect(last == AccessibilityElement(id: .banner, role: .alert, label: "Unable to connect. Please try again."))
    }
}
