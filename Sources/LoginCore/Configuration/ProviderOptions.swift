/// One provider in an app file's `"providers"` block, keyed by its id.
///
/// ```json
/// "providers": {
///   "google":    {"clientIds": ["…"], "hostedDomain": "…"},
///   "apple":     {"servicesId": "com.example.web", "bundleIds": ["com.example.app"], "teamId": "…", "keyId": "…", "privateKeyFile": "AuthKey_….p8"},
///   "github":    {"clientId": "…", "baseURL": "https://github.com"},
///   "microsoft": {"clientId": "…", "tenant": "common"},
///   "acme-sso":  {"type": "oidc", "issuer": "https://sso.acme.example", "clientId": "…", "label": "Acme SSO", "trustEmailVerified": true}
/// }
/// ```
/// A built-in id (`google`, `apple`, `github`, `microsoft`) is its own type; any other id needs
/// `"type": "oidc"` and an `issuer`. Client secrets never live here: the server reads
/// `GATEHOUSE_PROVIDER_<ID>_CLIENT_SECRET` (or `…_CLIENT_SECRET_FILE`). `issuer`, `baseURL`
/// and `authority` point a provider elsewhere (GitHub Enterprise Server, a local stand-in).
public struct ProviderOptions: Equatable, Sendable {
    /// `"oidc"` for an OpenID Connect issuer under an id of the app's own.
    public var type: String?
    /// Client ids whose ID tokens are accepted (web first); `clientId` is the one-id spelling.
    public var clientIDs: [String]
    public var issuer: String?
    /// GitHub's base URL (GitHub Enterprise Server's, or a stand-in's).
    public var baseURL: String?
    /// Microsoft's tenant: `common`, `organizations`, `consumers` or a tenant id.
    public var tenant: String?
    /// Where Microsoft's tenants are (a stand-in's, for tests).
    public var authority: String?
    /// Google Workspace: only this domain's accounts.
    public var hostedDomain: String?
    /// The button's provider name ("Sign in with Acme SSO").
    public var label: String?
    /// Whether a verified email from this provider may link to an existing account.
    public var trustEmailVerified: Bool?
    /// Apple: the web flow's Services ID, the native apps' bundle ids, the team and key ids, and
    /// the team's `.p8` key file (relative to the app file's folder).
    public var apple: AppleOptions?

    public init(
        type: String? = nil, clientIDs: [String] = [], issuer: String? = nil, baseURL: String? = nil, tenant: String? = nil,
        authority: String? = nil, hostedDomain: String? = nil, label: String? = nil, trustEmailVerified: Bool? = nil,
        apple: AppleOptions? = nil
    ) {
        self.apple = apple
        self.type = type
        self.clientIDs = clientIDs
        self.issuer = issuer
        self.baseURL = baseURL
        self.tenant = tenant
        self.authority = authority
        self.hostedDomain = hostedDomain
        self.label = label
        self.trustEmailVerified = trustEmailVerified
    }
}

extension ProviderOptions: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case type, clientIds, clientId, issuer, baseURL, tenant, authority, hostedDomain, label, trustEmailVerified
        case servicesId, bundleIds, teamId, keyId, privateKeyFile
    }

    public init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let many = try container.decodeIfPresent([String].self, forKey: .clientIds)
        let one = try container.decodeIfPresent(String.self, forKey: .clientId)
        if many != nil, one != nil {
            throw DecodingError.dataCorruptedError(forKey: .clientId, in: container, debugDescription: "give clientId or clientIds, not both")
        }
        self.init(
            type: try container.decodeIfPresent(String.self, forKey: .type), clientIDs: many ?? one.map { [$0] } ?? [],
            issuer: try container.decodeIfPresent(String.self, forKey: .issuer),
            baseURL: try container.decodeIfPresent(String.self, forKey: .baseURL),
            tenant: try container.decodeIfPresent(String.self, forKey: .tenant),
            authority: try container.decodeIfPresent(String.self, forKey: .authority),
            hostedDomain: try container.decodeIfPresent(String.self, forKey: .hostedDomain),
            label: try container.decodeIfPresent(String.self, forKey: .label),
            trustEmailVerified: try container.decodeIfPresent(Bool.self, forKey: .trustEmailVerified)
        )
        let servicesID = try container.decodeIfPresent(String.self, forKey: .servicesId)
        let teamID = try container.decodeIfPresent(String.self, forKey: .teamId)
        let keyID = try container.decodeIfPresent(String.self, forKey: .keyId)
        let keyFile = try container.decodeIfPresent(String.self, forKey: .privateKeyFile)
        let bundleIDs = try container.decodeIfPresent([String].self, forKey: .bundleIds)
        if servicesID != nil || teamID != nil || keyID != nil || keyFile != nil || bundleIDs != nil {
            guard let servicesID, let teamID, let keyID, let keyFile else {
                throw DecodingError.dataCorruptedError(
                    forKey: .servicesId, in: container, debugDescription: "Apple needs servicesId, teamId, keyId and privateKeyFile"
                )
            }
            apple = AppleOptions(servicesID: servicesID, bundleIDs: bundleIDs ?? [], teamID: teamID, keyID: keyID, privateKeyFile: keyFile)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(type, forKey: .type)
        try container.encode(clientIDs, forKey: .clientIds)
        try container.encodeIfPresent(issuer, forKey: .issuer)
        try container.encodeIfPresent(baseURL, forKey: .baseURL)
        try container.encodeIfPresent(tenant, forKey: .tenant)
        try container.encodeIfPresent(authority, forKey: .authority)
        try container.encodeIfPresent(hostedDomain, forKey: .hostedDomain)
        try container.encodeIfPresent(label, forKey: .label)
        try container.encodeIfPresent(trustEmailVerified, forKey: .trustEmailVerified)
        try container.encodeIfPresent(apple?.servicesID, forKey: .servicesId)
        try container.encodeIfPresent(apple?.bundleIDs, forKey: .bundleIds)
        try container.encodeIfPresent(apple?.teamID, forKey: .teamId)
        try container.encodeIfPresent(apple?.keyID, forKey: .keyId)
        try container.encodeIfPresent(apple?.privateKeyFile, forKey: .privateKeyFile)
    }
}

/// Sign in with Apple's part of a provider's settings.
public struct AppleOptions: Equatable, Sendable {
    public var servicesID: String
    public var bundleIDs: [String]
    public var teamID: String
    public var keyID: String
    public var privateKeyFile: String

    public init(servicesID: String, bundleIDs: [String], teamID: String, keyID: String, privateKeyFile: String) {
        self.servicesID = servicesID
        self.bundleIDs = bundleIDs
        self.teamID = teamID
        self.keyID = keyID
        self.privateKeyFile = privateKeyFile
    }
}
