import Foundation

/// An account operation that cannot be done, with a one-line explanation.
public enum AdministrationError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidEmail(String)
    case invalidPassword(String)
    case invalidName(String)
    case emailTaken(String)
    case noSuchUser(String)
    /// No account matches; the text names what was looked for ("the id …", "the phone …").
    case noSuchAccount(String)
    case invalidPhone(String)
    case phoneTaken(String)

    public var description: String {
        switch self {
        case .invalidEmail(let message), .invalidPassword(let message), .invalidName(let message): message
        case .emailTaken(let email): "An account with the email \(email) already exists"
        case .noSuchUser(let email): "No account has the email \(email)"
        case .noSuchAccount(let subject): "No account has \(subject)"
        case .invalidPhone(let phone): "\(phone) is not a valid phone number"
        case .phoneTaken(let phone): "An account with the phone \(phone) already exists"
        }
    }
}
