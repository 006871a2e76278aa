/// How one element of the login screen presents itself to assistive technology.
///
/// A UI maps these onto its platform: ARIA attributes on the web, accessibility modifiers in
/// SwiftUI. ``LoginForm/accessibility(of:)`` lists them in focus order.
public struct AccessibilityElement: Equatable, Sendable {
    /// Which element of the screen this is.
    public enum Identifier: String, Equatable, Sendable, CaseIterable {
        case header, email, password, visibilityToggle, submit, banner
    }

    /// The element's role, as VoiceOver and TalkBack speak it.
    public enum Role: String, Equatable, Sendable {
        case header
        case textField = "text field"
        case secureTextField = "secure text field"
        case button
        case alert
    }

    public var id: Identifier
    public var role: Role
    /// What the element is called ("Email address").
    public var label: String
    /// The current value, when reading it out is safe (never a hidden password).
    public var value: String?
    /// What happens on activation, or the error to fix.
    public var hint: String?
    /// The validation error the element carries; non-nil means it is in its error state.
    public var error: String?
    public var isEnabled: Bool
    /// Whether the element is busy (the sign-in button while a request is in flight).
    public var isBusy: Bool
    /// For toggle buttons, whether the toggle is on.
    public var isPressed: Bool?

    public init(
        id: Identifier, role: Role, label: String, value: String? = nil, hint: String? = nil,
        error: String? = nil, isEnabled: Bool = true, isBusy: Bool = false, isPressed: Bool? = nil
    ) {
        self.id = id
        self.role = role
        self.label = label
        self.value = value
        self.hint = hint
        self.error = error
        self.isEnabled = isEnabled
        self.isBusy = isBusy
        self.isPressed = isPressed
    }

    /// What a screen reader says on focus: label, role, value and error, comma-separated.
    public var spokenText: String {
        var parts = [label, role.rawValue]
        if let value, !value.isEmpty { parts.append(value) }
        if isPressed == true { parts.append("selected") }
        if !isEnabled { parts.append("dimmed") }
        if let error { parts.append(error) }
        return parts.joined(separator: ", ")
    }
}
