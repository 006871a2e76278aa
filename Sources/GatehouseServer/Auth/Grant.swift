import GatehouseModel

/// One way into an account: what a client presents to ``AuthService/signIn(_:from:)``.
///
/// Every sign-in method is a case here with its verifier in ``AuthService``; none has a path
/// of its own. Phone codes, ID tokens and passkeys are added as cases.
public enum Grant: Sendable, Equatable, CustomStringConvertible {
    /// An identifier (an email today) and a password.
    case password(identifier: String, password: String)
    /// A one-time code sent by SMS, named by the verification id its request returned.
    case phoneCode(verificationID: String, code: String)

    /// The identifier the grant claims, normalised; attempts are counted against it.
    var identifier: String {
        switch self {
        case .password(let identifier, _): EmailAddress.normalized(identifier)
        case .phoneCode(let verificationID, _): verificationID
        }
    }

    /// The grant's kind, for logs and metrics.
    var method: String {
        switch self {
        case .password: "password"
        case .phoneCode: "phone"
        }
    }

    /// Never shows the secret.
    public var description: String { "Grant.\(method)(identifier: \(identifier), <redacted>)" }
}

/// Who is asking: the client's address (behind a trusted proxy, the forwarded one), its user
/// agent, and the device token it presented, if any.
public struct ClientInfo: Sendable, Equatable {
    public var address: String
    public var userAgent: String?
    /// A device token from an earlier successful sign-in (OWASP's device cookie).
    public var deviceToken: String?

    public init(address: String, userAgent: String? = nil, deviceToken: String? = nil) {
        self.address = address
        self.userAgent = userAgent
        self.deviceToken = deviceToken
    }
}
