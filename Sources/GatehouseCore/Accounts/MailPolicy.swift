import Foundation

/// How account mail is limited and how long its secrets live.
///
/// Every limit is a counter in the database, shared by all instances; a refusal is 429 with
/// the wait, like the sign-in limits. The global budget is spent as mail leaves, after the
/// answer, so it can never tell a caller whether an address has an account.
public struct MailPolicy: Sendable, Equatable {
    /// Sign-ups from one client address per hour.
    public var signUpsPerAddressPerHour = 10
    /// Mails asked for from one client address per hour (sign-up, resend, reset).
    public var mailsPerAddressPerHour = 20
    /// Seconds between two mails of one purpose to one recipient.
    public var recipientInterval = 60
    /// Mails the whole service sends per hour; past it mail is dropped and logged.
    public var mailsPerHour = 1000
    /// Mails one recipient domain may take of the hourly budget, so a flood of requests for
    /// one domain's addresses cannot spend the mail everyone else is waiting for; half the
    /// budget when not set (a big webmail domain may well be most of an app's people).
    public var mailsPerDomainPerHour: Int?
    /// The share in force.
    package var domainShare: Int { mailsPerDomainPerHour ?? max(1, mailsPerHour / 2) }
    /// Code tries on one address's mails per day, whatever the mails (each new mail brings
    /// ``codeAttempts`` more, up to this).
    public var codeGuessesPerDay = 20
    /// Seconds a verification link or code lives (24 hours).
    public var verificationLifetime = 24 * 3600
    /// Seconds a reset link or code lives (30 minutes).
    public var resetLifetime = 30 * 60
    /// Seconds a sign-in code or link lives (10 minutes).
    public var signInCodeLifetime = 10 * 60
    /// Seconds the "This wasn't me" link of an email-changed notice works.
    public var revertLifetime = 7 * 24 * 3600
    /// Tries on one mailed code.
    public var codeAttempts = 5

    public init() {}
}
