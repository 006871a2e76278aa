/// The ways into an app (`"signIn"` in an app file): which methods the screen offers, and
/// for phone sign-in, which regions and whether "Create Account" registers numbers.
public struct SignInMethods: Equatable, Sendable {
    /// A way in.
    public enum Method: String, Codable, Sendable, CaseIterable {
        case email, phone, google
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
}

extension SignInMethods.Method {
    /// How a sentence names the method: "email", "phone", "Google".
    public var displayName: String {
        switch self {
        case .email: "email"
        case .phone: "phone"
        case .google: "Google"
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
    }
}
