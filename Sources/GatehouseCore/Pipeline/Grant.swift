import GatehouseModel
import LoginCore

/// One way into an account: what a client presents to ``SignInPipeline/signIn(_:from:)``.
///
/// Every sign-in method is a case here with a ``GrantVerifier`` a feature service registers; none has a path
/// of its own. Phone codes, ID tokens and passkeys are added as cases.
public enum Grant: Sendable, Equatable, CustomStringConvertible {
    /// An identifier (an email today) and a password.
    case password(identifier: String, password: String)
    /// A one-time code sent by SMS, named by the verification id its request returned.
    case phoneCode(verificationID: String, code: String)
    /// Proof from a configured provider (by its app-file id: `google`, `apple`, `acme-sso`) of
    /// who is signing in.
    case provider(SignInMethods.Method, ProviderProof)
    /// The one-time code a finished provider flow returned to an app, with the app's PKCE verifier.
    case flowCode(code: String, verifier: String)
    /// A verification mail's link or code: proves the address, and signs in.
    case emailLink(MailProof)
    /// A sign-in mail's code or link (`signIn.methods` lists `emailCode`): proves the address
    /// and signs in, creating the account first where the request asked and the app allows it.
    case emailCode(MailProof)
    /// A reset mail's link or code with the new password; without one (Supabase's
    /// `verify type=recovery`), it signs in for the password to be set next.
    case passwordReset(MailProof, newPassword: String?)
    /// A passkey's assertion, answering a challenge from ``PasskeyService/passkeyAuthenticationOptions(from:)``.
    case passkey(PasskeyAssertion)
    /// An answer to a second factor's challenge: only a step up of a signed-in session takes it
    /// (``SignInPipeline/stepUp(_:of:from:)``).
    case secondFactor(SecondFactorProof)
    /// A new guest account (issue 39): no identity; it is kept by adding one later.
    case anonymous

    /// The identifier the grant claims, normalised; attempts are counted against it.
    package var identifier: String {
        switch self {
        case .password(let identifier, _): EmailAddress.normalized(identifier)
        case .phoneCode(let verificationID, _): verificationID
        // Not an account: each proof counts on its own, and the address limit bounds them all.
        case .provider(let id, let proof): id.rawValue + ":" + RefreshToken.hash(proof.secret)
        case .flowCode(let code, _): "flow:" + RefreshToken.hash(code)
        // A code counts against its address, like a password; a link's token on its own.
        case .emailLink(let proof), .emailCode(let proof), .passwordReset(let proof, _): proof.identifier
        // Credential ids are random: each counts on its own, and the address limit bounds them all.
        case .passkey(let assertion): "passkey:" + RefreshToken.hash(assertion.id)
        // The account's own back-off, like its password's.
        case .secondFactor(let proof): proof.account
        // Nothing to guess: only a guest sign-in that failed would count, and none does.
        case .anonymous: "anonymous"
        }
    }

    /// The grant's kind, for logs, events and metrics.
    package var method: SignInMethodName {
        switch self {
        case .password: .password
        case .phoneCode: .phone
        // A built-in id is its kind; any other is an OpenID Connect provider's.
        case .provider(let id, _): (ProviderKind(builtIn: id) ?? .oidc).method
        // Which provider's flow it finished is known once it is verified (``Verified/method``).
        case .flowCode: .oidc
        case .emailLink: .emailLink
        case .emailCode: .emailCode
        case .passwordReset: .passwordReset
        case .passkey: .passkey
        case .secondFactor(let proof): proof.method
        case .anonymous: .anonymous
        }
    }

    /// Never shows the secret.
    public var description: String { "Grant.\(method.rawValue)(identifier: \(identifier), <redacted>)" }
}

/// An answer to a challenge of the signed-in account's second factor.
public struct SecondFactorProof: Sendable, Equatable {
    /// What answers a challenge.
    public enum Answer: Sendable, Equatable {
        /// A code from the factor's authenticator app.
        case code(String)
        /// One of the account's recovery codes.
        case recoveryCode(String)
    }

    /// The signed-in account the challenge must belong to.
    package let userID: String
    /// What the account's back-off counts under (its email, or `user:<id>`).
    package let account: String
    package let challengeID: String
    package let answer: Answer

    package init(userID: String, account: String, challengeID: String, answer: Answer) {
        self.userID = userID
        self.account = account
        self.challengeID = challengeID
        self.answer = answer
    }

    var method: SignInMethodName {
        switch answer {
        case .code: .totp
        case .recoveryCode: .recoveryCode
        }
    }
}

/// What an app presents from a provider: an ID token it obtained itself, an authorization code for
/// the server to exchange (seed 002), or the provider's answer to one of the server's own flows.
public enum ProviderProof: Sendable, Equatable {
    /// An ID token and the nonce the app sent with its request (GoTrue's hashed-nonce rule);
    /// `name` is what Apple's sheet gave the app at the first authorisation only.
    case idToken(String, nonce: String?, name: String? = nil)
    /// A code the app received from the provider, with the redirect URI and PKCE verifier it used.
    case authorizationCode(String, redirectURI: String?, codeVerifier: String?)
    /// The provider's redirect back to the server: the flow's `state`, the code, and the
    /// browser's binding cookie; `name`, Apple's `user` field of a first authorisation.
    case callback(state: String, code: String, binding: String?, name: String? = nil)

    /// The secret part, for counting attempts by its hash.
    package var secret: String {
        switch self {
        case .idToken(let token, _, _): token
        case .authorizationCode(let code, _, _): code
        case .callback(let state, _, _, _): state
        }
    }
}

/// Who is asking: the client's address (behind a trusted proxy, the forwarded one), its user
/// agent, and the device token it presented, if any.
public struct ClientInfo: Sendable, Equatable {
    public var address: String
    public var userAgent: String?
    /// A device token from an earlier successful sign-in (OWASP's device cookie).
    public var deviceToken: String?
    /// The secret a sign-up handed this browser or app (``SignUpReceipt/binding``), presented
    /// when it verifies: a sign-up mail's link signs in only where the sign-up was made.
    public var signUpBinding: String?

    public init(address: String, userAgent: String? = nil, deviceToken: String? = nil, signUpBinding: String? = nil) {
        self.address = address
        self.userAgent = userAgent
        self.deviceToken = deviceToken
        self.signUpBinding = signUpBinding
    }
}

extension MailProof {
    /// What attempts with this proof are counted against.
    package var identifier: String {
        switch self {
        case .token(let token): "mail:" + RefreshToken.hash(token)
        case .code(let email, _): EmailAddress.normalized(email)
        }
    }
}
