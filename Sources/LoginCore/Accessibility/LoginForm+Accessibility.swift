extension LoginForm {
    /// The screen's elements in focus order, as assistive technology should present them.
    ///
    /// The order is seed 003's: header → email → password → visibility toggle → sign-in button,
    /// then the banner when there is one. A hidden password's value is never exposed.
    /// - Parameter state: the current state.
    public func accessibility(of state: LoginState) -> [AccessibilityElement] {
        let fieldsEnabled = state.areFieldsEnabled
        var elements: [AccessibilityElement] = [
            AccessibilityElement(id: .header, role: .header, label: configuration.appName),
            AccessibilityElement(
                id: .email, role: .textField, label: messages.text(.emailLabel), value: state.email,
                error: state.emailError, isEnabled: fieldsEnabled
            ),
            AccessibilityElement(
                id: .password, role: state.isPasswordVisible ? .textField : .secureTextField,
                label: messages.text(.passwordLabel), value: state.isPasswordVisible ? state.password : nil,
                error: state.passwordError, isEnabled: fieldsEnabled
            ),
            AccessibilityElement(
                id: .visibilityToggle, role: .button,
                label: messages.text(state.isPasswordVisible ? .hidePassword : .showPassword),
                isEnabled: fieldsEnabled, isPressed: state.isPasswordVisible
            ),
            AccessibilityElement(
                id: .submit, role: .button, label: messages.text(.submit),
                value: state.isSubmitting ? messages.text(.signingIn) : nil,
                isEnabled: state.isSubmitEnabled, isBusy: state.isSubmitting
            ),
        ]
        if let banner = state.banner {
            elements.append(AccessibilityElement(id: .banner, role: .alert, label: banner))
        }
        return elements
    }
}
