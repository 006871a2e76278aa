/// `PublicKeyCredential.toJSON()` of a registration (WebAuthn §5.1, `RegistrationResponseJSON`):
/// what the browser or a native authenticator sends to finish enrolling a passkey.
///
/// Binary fields are base64url without padding. Members this type does not name are ignored.
public struct PasskeyRegistrationJSON: Codable, Sendable, Equatable {
    public var id: String
    public var rawId: String
    public var type: String
    public var response: Response
    public var authenticatorAttachment: String?

    public init(id: String, rawId: String, type: String = "public-key", response: Response, authenticatorAttachment: String? = nil) {
        self.id = id
        self.rawId = rawId
        self.type = type
        self.response = response
        self.authenticatorAttachment = authenticatorAttachment
    }

    public struct Response: Codable, Sendable, Equatable {
        public var clientDataJSON: String
        public var attestationObject: String
        public var transports: [String]?

        public init(clientDataJSON: String, attestationObject: String, transports: [String]? = nil) {
            self.clientDataJSON = clientDataJSON
            self.attestationObject = attestationObject
            self.transports = transports
        }
    }
}

/// `PublicKeyCredential.toJSON()` of an authentication (`AuthenticationResponseJSON`): what
/// signs in with a passkey.
public struct PasskeyAssertionJSON: Codable, Sendable, Equatable {
    public var id: String
    public var rawId: String
    public var type: String
    public var response: Response
    public var authenticatorAttachment: String?

    public init(id: String, rawId: String, type: String = "public-key", response: Response, authenticatorAttachment: String? = nil) {
        self.id = id
        self.rawId = rawId
        self.type = type
        self.response = response
        self.authenticatorAttachment = authenticatorAttachment
    }

    public struct Response: Codable, Sendable, Equatable {
        public var clientDataJSON: String
        public var authenticatorData: String
        public var signature: String
        public var userHandle: String?

        public init(clientDataJSON: String, authenticatorData: String, signature: String, userHandle: String?) {
            self.clientDataJSON = clientDataJSON
            self.authenticatorData = authenticatorData
            self.signature = signature
            self.userHandle = userHandle
        }
    }
}
