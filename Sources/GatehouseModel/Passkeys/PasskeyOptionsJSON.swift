/// `PublicKeyCredentialCreationOptionsJSON` (WebAuthn §5.4): what `navigator.credentials.create()`
/// (after `PublicKeyCredential.parseCreationOptionsFromJSON`) or a native authenticator takes.
public struct PasskeyCreationOptions: Codable, Sendable, Equatable {
    public var rp: RelyingPartyEntity
    public var user: UserEntity
    /// base64url.
    public var challenge: String
    public var pubKeyCredParams: [Parameter]
    /// Milliseconds.
    public var timeout: Int
    public var excludeCredentials: [CredentialDescriptor]
    public var authenticatorSelection: AuthenticatorSelection
    public var attestation: String

    public init(
        rp: RelyingPartyEntity, user: UserEntity, challenge: String, pubKeyCredParams: [Parameter], timeout: Int,
        excludeCredentials: [CredentialDescriptor], authenticatorSelection: AuthenticatorSelection = .passkey, attestation: String = "none"
    ) {
        self.rp = rp
        self.user = user
        self.challenge = challenge
        self.pubKeyCredParams = pubKeyCredParams
        self.timeout = timeout
        self.excludeCredentials = excludeCredentials
        self.authenticatorSelection = authenticatorSelection
        self.attestation = attestation
    }

    public struct RelyingPartyEntity: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    public struct UserEntity: Codable, Sendable, Equatable {
        /// The account's user handle, base64url: random, never an email.
        public var id: String
        public var name: String
        public var displayName: String
        public init(id: String, name: String, displayName: String) {
            self.id = id
            self.name = name
            self.displayName = displayName
        }
    }

    public struct Parameter: Codable, Sendable, Equatable {
        public var type: String
        public var alg: Int
        public init(alg: Int) {
            type = "public-key"
            self.alg = alg
        }
    }

    public struct AuthenticatorSelection: Codable, Sendable, Equatable {
        public var residentKey: String
        public var requireResidentKey: Bool
        public var userVerification: String
        /// A discoverable credential that verifies the user: a passkey.
        public static let passkey = AuthenticatorSelection(residentKey: "required", requireResidentKey: true, userVerification: "required")
    }
}

/// `PublicKeyCredentialRequestOptionsJSON` (§5.5): what `navigator.credentials.get()` takes.
/// Gatehouse's are discoverable: `allowCredentials` is empty, the authenticator offers its passkeys.
public struct PasskeyRequestOptions: Codable, Sendable, Equatable {
    public var challenge: String
    public var timeout: Int
    public var rpId: String
    public var allowCredentials: [CredentialDescriptor]
    public var userVerification: String

    public init(challenge: String, timeout: Int, rpId: String, allowCredentials: [CredentialDescriptor] = [], userVerification: String = "required") {
        self.challenge = challenge
        self.timeout = timeout
        self.rpId = rpId
        self.allowCredentials = allowCredentials
        self.userVerification = userVerification
    }
}

/// A credential named in options (`PublicKeyCredentialDescriptorJSON`).
public struct CredentialDescriptor: Codable, Sendable, Equatable {
    public var type: String
    /// base64url.
    public var id: String
    public var transports: [String]?
    public init(id: String, transports: [String]?) {
        type = "public-key"
        self.id = id
        self.transports = transports
    }
}

/// One of an account's passkeys, as lists show it.
public struct PasskeySummary: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var createdAt: String
    public var lastUsedAt: String?
    /// Backed up to a passkey provider (synced) rather than bound to this device.
    public var synced: Bool

    public init(id: String, name: String, createdAt: String, lastUsedAt: String?, synced: Bool) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.synced = synced
    }

    enum CodingKeys: String, CodingKey {
        case id, name, synced
        case createdAt = "created_at", lastUsedAt = "last_used_at"
    }
}
