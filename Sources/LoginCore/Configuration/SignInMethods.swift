/// The ways into an app (`"signIn"` in an app file): which methods the screen offers, and
/// for phone sign-in, which regions and whether "Create Account" registers numbers.
public struct SignInMethods: Equatable, Sendable {
    /// A way in: `email`, `phone`, or a provider the app file configures (`google`, `apple`,
    /// `github`, `microsoft`, or the id of any OpenID Connect provider, such as `acme-sso`).
    ///
    /// Open, because an app names its own OpenID providers; an id is 1 to 32 lowercase letters,
    /// digits and dashes.
    public struct Method: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let email = Method(rawValue: "email")
        public static let phone = Method(rawValue: "phone")
        public static let google = Method(rawValue: "google")
        public static let apple = Method(rawValue: "apple")
        public static let github = Method(rawValue: "github")
        public static let microsoft = Method(rawValue: "microsoft")
        /// A code and link mailed to the address (issue 39): "Email me a sign-in code".
        public static let emailCode = Method(rawValue: "emailCode")
        /// Guest accounts with no identity, kept later by adding one (issue 39).
        public static let anonymous = Method(rawValue: "anonymous")

        /// The methods that are not an external provider's.
        static let ownMethods: Set<Method> = [.email, .phone, .emailCode, .anonymous]

        /// Whether the method is an external provider's (anything but email, phone, the email
        /// code and guest accounts).
        public var isProvider: Bool { !Self.ownMethods.contains(self) }

        /// Whether `rawValue` is a well-formed id (or one of Gatehouse's own method names).
        public var isWellFormed: Bool {
            Self.ownMethods.contains(self) || (1...32).contains(rawValue.utf8.count)
                && rawValue.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
                && rawValue.first != "-"
        }

        public var description: String { rawValue }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            self.init(rawValue: try container.decode(String.self))
            guard isWellFormed else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "a sign-in method is 1 to 32 lowercase letters, digits and dashes: \(rawValue)"
                )
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }

    /// The methods, in the order the screen shows them.
    public var methods: [Method]
    /// Regions phone numbers may come from, the default first (UrbanNest: India).
    public var phoneRegions: [String]
    /// Whether a new number may register.
    public var phoneRegistration: Bool

    public init(methods: [Method] = [.email], phoneRegions: [String] = ["IN"], phoneRegistration: Bool = true) {
        self.methods = methods
        self.phoneRegions = phoneRegions
        self.phoneRegistration = phoneRegistration
    }

    public func offers(_ method: Method) -> Bool { methods.contains(method) }

    /// The providers the screen offers, in its order.
    public var providers: [Method] { methods.filter(\.isProvider) }
}

extension SignInMethods.Method {
    /// How a sentence names the method: "email", "phone", "Google", "Apple", "GitHub",
    /// "Microsoft"; another provider by its id (its screen label comes from the app file).
    public var displayName: String {
        switch self {
        case .google: "Google"
        case .apple: "Apple"
        case .github: "GitHub"
        case .microsoft: "Microsoft"
        case .emailCode: "email code"
        case .anonymous: "guest accounts"
        default: rawValue
        }
    }
}

extension SignInMethods: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable { case methods, phoneRegions, phoneRegistration }

    public init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = SignInMethods()
        self.init(
            methods: try container.decodeIfPresent([Method].self, forKey: .methods) ?? defaults.methods,
            phoneRegions: try container.decodeIfPresent([String].self, forKey: .phoneRegions) ?? defaults.phoneRegions,
            phoneRegistration: try container.decodeIfPresent(Bool.self, forKey: .phoneRegistration) ?? defaults.phoneRegistration
        )
        guard !methods.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .methods, in: container, debugDescription: "at least one method is required")
        }
        guard Set(methods).count == methods.count else {
            throw DecodingError.dataCorruptedError(forKey: .methods, in: container, debugDescription: "each method may be listed once")
        }
    }
}
