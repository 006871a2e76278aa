import Foundation

/// Everything that differs between one app's login screen and another's.
///
/// Seed 000's behaviour and copy are the defaults. Each seed app is an example configuration in
/// `examples/`, loaded with ``LoginConfiguration/load(from:)``. Every key of the JSON form is
/// optional; a missing key keeps its default and an unknown one is an error.
public struct LoginConfiguration: Equatable, Sendable {
    /// The app's name, shown as the screen's header (seed 003: the organisation name).
    public var appName: String
    /// When the sign-in button is enabled.
    public var submitPolicy: SubmitPolicy
    /// The email and password rules.
    public var rules: FieldRules
    /// The screen's copy.
    public var messages: MessageCatalogue
    /// The app's colours, light and dark.
    public var theme: LoginTheme
    /// The app's mark, replacing Gatehouse's generic one on every screen.
    public var logo: LoginLogo?
    /// Whether the screens report analytics events (`.track` effects); an app file's
    /// `"analytics": false` turns them off.
    public var analytics: Bool

    /// Creates a configuration; every parameter defaults to seed 000.
    public init(
        appName: String = "Gatehouse",
        submitPolicy: SubmitPolicy = .disabledUntilValid,
        rules: FieldRules = FieldRules(),
        messages: MessageCatalogue = MessageCatalogue(),
        theme: LoginTheme = LoginTheme(),
        logo: LoginLogo? = nil,
        analytics: Bool = true
    ) {
        self.analytics = analytics
        self.appName = appName
        self.submitPolicy = submitPolicy
        self.rules = rules
        self.messages = messages
        self.theme = theme
        self.logo = logo
    }

    /// Seed 000's configuration.
    public static let standard = LoginConfiguration()
}

extension LoginConfiguration: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case appName, submitPolicy, rules, messages, theme, logo, analytics
    }

    public init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let base = LoginConfiguration()
        self.init(
            appName: try container.decodeIfPresent(String.self, forKey: .appName) ?? base.appName,
            submitPolicy: try container.decodeIfPresent(SubmitPolicy.self, forKey: .submitPolicy) ?? base.submitPolicy,
            rules: try container.decodeIfPresent(FieldRules.self, forKey: .rules) ?? base.rules,
            messages: try container.decodeIfPresent(MessageCatalogue.self, forKey: .messages) ?? base.messages,
            theme: try container.decodeIfPresent(LoginTheme.self, forKey: .theme) ?? base.theme,
            logo: try container.decodeIfPresent(LoginLogo.self, forKey: .logo),
            analytics: try container.decodeIfPresent(Bool.self, forKey: .analytics) ?? base.analytics
        )
    }
}

extension LoginConfiguration {
    /// Reads a configuration from a JSON file.
    ///
    /// The file may be a bare configuration or an app file (``AppConfiguration``) with the
    /// configuration under a top-level `"login"` key, as the `examples/` files are.
    /// - Parameter url: the file to read.
    public static func load(from url: URL) throws -> LoginConfiguration {
        let data = try Data(contentsOf: url)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        if object?["login"] != nil || object?["backend"] != nil {
            return try JSONDecoder().decode(AppConfiguration.self, from: data).login
        }
        return try JSONDecoder().decode(LoginConfiguration.self, from: data)
    }
}
