import Foundation

/// One challenge of an account's second factor, as stored (issue 37).
///
/// A challenge is what a code (or a recovery code) answers: it lives 5 minutes, ends after
/// ``FactorChallengeRecord/maximumFailures`` wrong answers, and is completed once.
public struct FactorChallengeRecord: Sendable, Equatable {
    /// Wrong answers that end a challenge.
    public static let maximumFailures = 5

    public var id: String
    public var userID: String
    /// The factor whose codes answer it; recovery codes answer any challenge of the account.
    public var factorID: String?
    public var createdAt: Date
    public var expiresAt: Date
    public var failures: Int
    public var completedAt: Date?

    public init(
        id: String, userID: String, factorID: String?, createdAt: Date, expiresAt: Date, failures: Int = 0, completedAt: Date? = nil
    ) {
        self.id = id
        self.userID = userID
        self.factorID = factorID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.failures = failures
        self.completedAt = completedAt
    }

    /// Whether an answer may still be tried at `date`.
    package func isOpen(at date: Date) -> Bool {
        completedAt == nil && date < expiresAt && failures < Self.maximumFailures
    }
}
