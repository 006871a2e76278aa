import LoginCore

/// What Home confirms after a page that finished something (`/home?done=…`): "Your email
/// address is verified.", "Your password was changed." Only these values are read; anything
/// else in the query shows nothing.
package enum HomeNotice: String, Sendable, CaseIterable {
    case emailVerified = "verified"
    case passwordChanged = "password"
    case emailChanged = "email"

    /// The confirmation's text.
    package var key: MessageKey {
        switch self {
        case .emailVerified: .emailVerified
        case .passwordChanged: .passwordChanged
        case .emailChanged: .emailChangeDone
        }
    }
}
