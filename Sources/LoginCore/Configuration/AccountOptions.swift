/// What an app lets people do with an email account beyond signing in (`"accounts"` in an app
/// file): sign up, reset a forgotten password, and whether an unverified email may sign in.
///
/// Every option is off by default (seed 000 has none of them); Peated's example turns them on.
public struct AccountOptions: Equatable, Sendable {
    /// Whether people may create an account ("Don't have an account? Sign up").
    public var signUp: Bool
    /// Whether "Forgot password?" is offered and reset mails are sent.
    public var passwordReset: Bool
    /// Whether a right password to an account whose email is unverified is refused with
    /// `email_not_verified` (seed 002: "Please verify your email address.").
    public var requireVerifiedEmail: Bool
    /// The shortest new password (sign-up, reset, change), in characters; NIST SP 800-63B asks for 8.
    public var passwordMinimumLength: Int
    /// Days a guest account (`signIn.methods` lists `anonymous`) lives without being used (30).
    public var anonymousRetentionDays: Int
    /// Days between an owner deleting their account and its removal (0: at once); a sign-in
    /// within them keeps it.
    public var deletionGraceDays: Int

    public init(
        signUp: Bool = false, passwordReset: Bool = false, requireVerifiedEmail: Bool = false, passwordMinimumLength: Int = 8,
        anonymousRetentionDays: Int = 30, deletionGraceDays: Int = 0
    ) {
        self.deletionGraceDays = deletionGraceDays
        self.signUp = signUp
        self.passwordReset = passwordReset
        self.requireVerifiedEmail = requireVerifiedEmail
        self.passwordMinimumLength = passwordMinimumLength
        self.anonymousRetentionDays = anonymousRetentionDays
    }

    /// Whether any option needs mail to be sent.
    public var sendsMail: Bool { signUp || passwordReset || requireVerifiedEmail }
}

extension AccountOptions: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable { case signUp, passwordReset, requireVerifiedEmail, passwordMinimumLength, anonymousRetentionDays
        case deletionGraceDays
    }

    public init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = AccountOptions()
        self.init(
            signUp: try container.decodeIfPresent(Bool.self, forKey: .signUp) ?? defaults.signUp,
            passwordReset: try container.decodeIfPresent(Bool.self, forKey: .passwordReset) ?? defaults.passwordReset,
            requireVerifiedEmail: try container.decodeIfPresent(Bool.self, forKey: .requireVerifiedEmail) ?? defaults.requireVerifiedEmail,
            passwordMinimumLength: try container.decodeIfPresent(Int.self, forKey: .passwordMinimumLength) ?? defaults.passwordMinimumLength,
            anonymousRetentionDays: try container.decodeIfPresent(Int.self, forKey: .anonymousRetentionDays) ?? defaults.anonymousRetentionDays,
            deletionGraceDays: try container.decodeIfPresent(Int.self, forKey: .deletionGraceDays) ?? defaults.deletionGraceDays
        )
        guard (0...365).contains(deletionGraceDays) else {
            throw DecodingError.dataCorruptedError(forKey: .deletionGraceDays, in: container, debugDescription: "must be 0 to 365 days")
        }
        guard (1...3650).contains(anonymousRetentionDays) else {
            throw DecodingError.dataCorruptedError(forKey: .anonymousRetentionDays, in: container, debugDescription: "must be 1 to 3650 days")
        }
        guard (8...256).contains(passwordMinimumLength) else {
            throw DecodingError.dataCorruptedError(
                forKey: .passwordMinimumLength, in: container, debugDescription: "must be 8 to 256 characters (NIST SP 800-63B asks for at least 8)"
            )
        }
    }
}
