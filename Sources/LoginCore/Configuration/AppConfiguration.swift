import Foundation

/// An app file as `examples/` holds them: the login screen under `"login"`, the API under
/// `"backend"` and the ways in under `"signIn"`. Every key is optional; any other is an error.
public struct AppConfiguration: Equatable, Sendable {
    public var login: LoginConfiguration
    public var backend: BackendConfiguration
    /// The ways in: email, phone, Google.
    public var signIn: SignInMethods
    /// Sign-up, password reset and email verification.
    public var accounts: AccountOptions
    /// Seed 003's biometric offer and the native apps sharing the site's passkeys.
    public var passkeys: PasskeyOptions
    /// Two-step verification; `nil` when the app file has no `mfa` block (off).
    public var mfa: SecondFactorOptions?
    /// The external providers, by id; `signIn.methods` says which the screen shows, in order.
    public var providers: [String: ProviderOptions]
    /// The optional security notices (a new device's sign-in).
    public var notifications: NotificationOptions

    public init(
        login: LoginConfiguration = .standard, backend: BackendConfiguration = BackendConfiguration(),
        signIn: SignInMethods = SignInMethods(), accounts: AccountOptions = AccountOptions(), passkeys: PasskeyOptions = PasskeyOptions(),
        mfa: SecondFactorOptions? = nil, providers: [String: ProviderOptions] = [:], notifications: NotificationOptions = NotificationOptions()
    ) {
        self.notifications = notifications
        self.mfa = mfa
        self.providers = providers
        self.login = login
        self.backend = backend
        self.signIn = signIn
        self.accounts = accounts
        self.passkeys = passkeys
    }

    /// Reads an app file.
    /// - Parameter url: the JSON file.
    public static func load(from url: URL) throws -> AppConfiguration {
        try JSONDecoder().decode(AppConfiguration.self, from: Data(contentsOf: url))
    }
}

extension AppConfiguration {
    /// The providers Gatehouse knows by name.
    public static let builtInProviders: Set<SignInMethods.Method> = [.google, .apple, .github, .microsoft]
}

extension AppConfiguration: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable { case login, backend, signIn, accounts, passkeys, mfa, providers, notifications }

    public init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            login: try container.decodeIfPresent(LoginConfiguration.self, forKey: .login) ?? .standard,
            backend: try container.decodeIfPresent(BackendConfiguration.self, forKey: .backend) ?? BackendConfiguration(),
            signIn: try container.decodeIfPresent(SignInMethods.self, forKey: .signIn) ?? SignInMethods(),
            accounts: try container.decodeIfPresent(AccountOptions.self, forKey: .accounts) ?? AccountOptions(),
            passkeys: try container.decodeIfPresent(PasskeyOptions.self, forKey: .passkeys) ?? PasskeyOptions(),
            mfa: try container.decodeIfPresent(SecondFactorOptions.self, forKey: .mfa),
            providers: try container.decodeIfPresent([String: ProviderOptions].self, forKey: .providers) ?? [:],
            notifications: try container.decodeIfPresent(NotificationOptions.self, forKey: .notifications) ?? NotificationOptions()
        )
        for id in providers.keys where !SignInMethods.Method(rawValue: id).isWellFormed || !SignInMethods.Method(rawValue: id).isProvider {
            throw DecodingError.dataCorruptedError(
                forKey: .providers, in: container, debugDescription: "a provider id is 1 to 32 lowercase letters, digits and dashes (not email or phone): \(id)"
            )
        }
        // A built-in provider may be listed before it is configured (its button shows once it
        // is); an id of the app's own must say what it is.
        for method in signIn.providers where !Self.builtInProviders.contains(method) && providers[method.rawValue] == nil {
            throw DecodingError.dataCorruptedError(
                forKey: .providers, in: container, debugDescription: "signIn.methods lists \(method) but providers has no \(method)"
            )
        }
    }
}
