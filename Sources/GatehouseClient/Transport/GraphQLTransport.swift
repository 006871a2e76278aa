import Foundation
import LoginCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Seed 001's GraphQL API: the `login` mutation (FR-004), `refresh`, `logout` and `me`.
///
/// Failures arrive as GraphQL errors; their `extensions.code` becomes an ``AuthError``:
/// `INVALID_CREDENTIALS` is ``AuthError/invalidCredentials``, `UNAUTHENTICATED` a 401 that
/// triggers a refresh, and the refresh codes end the session as they do over REST.
public struct GraphQLTransport: PhoneCodeTransport, AccountTransport, AccountDeletionTransport {
    static let userFields = "user { id email firstName lastName }"
    static let login = """
        mutation login($email: String!, $password: String!) { \
        login(data: { email: $email, password: $password }) { token refreshToken expiresIn \(userFields) \(factorFields) } }
        """
    static let refresh = """
        mutation refresh($refreshToken: String!) { \
        refresh(data: { refreshToken: $refreshToken }) { token refreshToken expiresIn \(userFields) } }
        """
    /// What a sign-in answers of a second factor due (issue 37).
    static let factorFields = "secondFactors { id type friendlyName status }"
    static let logout = "mutation logout($scope: String) { logout(scope: $scope) }"
    static let sendPhoneCode = """
        mutation send($phone: String!, $country: String) { \
        sendPhoneCode(data: { phone: $phone, country: $country }) { \(codeFields) } }
        """
    static let resendPhoneCode = "mutation resend($id: String!) { resendPhoneCode(verificationId: $id) { \(codeFields) } }"
    static let verifyPhoneCode = """
        mutation verify($id: String!, $code: String!) { \
        verifyPhoneCode(data: { verificationId: $id, code: $code }) { token refreshToken expiresIn \(userFields) } }
        """
    static let verifyEmail = """
        mutation verifyEmail($token: String, $email: String, $code: String) { \
        verifyEmail(data: { token: $token, email: $email, code: $code }) { token refreshToken expiresIn \(userFields) } }
        """
    static let verifyEmailCode = """
        mutation verifyEmailCode($token: String, $email: String, $code: String) { \
        verifyEmailCode(data: { token: $token, email: $email, code: $code }) { token refreshToken expiresIn \(userFields) } }
        """
    static let signInAnonymously = """
        mutation signInAnonymously { signInAnonymously { token refreshToken expiresIn \(userFields) } }
        """
    static let resetPassword = """
        mutation resetPassword($token: String, $email: String, $code: String, $password: String!) { \
        resetPassword(data: { token: $token, email: $email, code: $code }, password: $password) { token refreshToken expiresIn \(userFields) } }
        """
    static let signInWithPasskey = """
        mutation signInWithPasskey($credential: String!) { signInWithPasskey(credential: $credential) { token refreshToken expiresIn \(userFields) } }
        """
    static let signInWithGoogle = """
        mutation google($code: String, $redirectUri: String, $codeVerifier: String, $idToken: String, $nonce: String) { \
        signInWithGoogle(data: { code: $code, redirectUri: $redirectUri, codeVerifier: $codeVerifier, idToken: $idToken, nonce: $nonce }) \
        { token refreshToken expiresIn \(userFields) } }
        """
    static let signInWithApple = """
        mutation apple($idToken: String!, $nonce: String, $name: String) { \
        signInWithApple(data: { idToken: $idToken, nonce: $nonce, name: $name }) \
        { token refreshToken expiresIn \(userFields) } }
        """
    static let codeFields = "verificationId phoneMasked expiresIn resendAfter codeLength"
    static let me = "query me { me { id email firstName lastName } }"

    /// The GraphQL endpoint.
    public let endpoint: URL
    let exchange: JSONExchange

    /// Creates a transport; throws ``AuthError/insecureURL(_:)`` for plain http off loopback.
    /// - Parameters:
    ///   - endpoint: the GraphQL URL, such as `https://api.example.com/graphql`.
    ///   - http: how requests are sent.
    public init(endpoint: URL, http: any HTTPExecutor = URLSessionExecutor()) throws {
        self.endpoint = try ServerURL.validated(endpoint)
        exchange = JSONExchange(http: SignUpBindingExecutor(wrapping: http))
    }

    public func token(_ grant: AuthGrant) async throws -> TokenResponse {
        switch grant {
        case .password(let identifier, let password):
            try await execute(Self.login, ["email": identifier, "password": password], field: "login", as: Payload.self).tokens
        case .refreshToken(let token):
            try await execute(Self.refresh, ["refreshToken": token], field: "refresh", as: Payload.self).tokens
        case .phoneCode(let id, _, let code):
            try await execute(Self.verifyPhoneCode, ["id": id, "code": code], field: "verifyPhoneCode", as: Payload.self).tokens
        case .googleCode(let code, let redirectURI, let verifier):
            try await execute(Self.signInWithGoogle, ["code": code, "redirectUri": redirectURI, "codeVerifier": verifier].compactMapValues { $0 },
                              field: "signInWithGoogle", as: Payload.self).tokens
        case .googleIDToken(let token, let nonce):
            try await execute(Self.signInWithGoogle, ["idToken": token, "nonce": nonce].compactMapValues { $0 },
                              field: "signInWithGoogle", as: Payload.self).tokens
        case .apple(let token, let nonce, let name):
            try await execute(Self.signInWithApple, ["idToken": token, "nonce": nonce, "name": name].compactMapValues { $0 },
                              field: "signInWithApple", as: Payload.self).tokens
        case .flowCode:
            throw grant.unsupported(by: "GraphQL")
        case .emailLink(let proof):
            try await execute(Self.verifyEmail, proof.fields, field: "verifyEmail", as: Payload.self).tokens
        case .anonymous:
            try await execute(Self.signInAnonymously, [:], field: "signInAnonymously", as: Payload.self).tokens
        case .emailCode(let proof):
            try await execute(Self.verifyEmailCode, proof.fields, field: "verifyEmailCode", as: Payload.self).tokens
        case .passwordReset(let proof, let password):
            try await execute(Self.resetPassword, proof.fields.merging(["password": password]) { a, _ in a }, field: "resetPassword", as: Payload.self).tokens
        case .passkey(let credential):
            // The credential travels as its JSON text (`PublicKeyCredential.toJSON()`).
            try await execute(
                Self.signInWithPasskey, ["credential": String(decoding: try JSONEncoder().encode(credential), as: UTF8.self)],
                field: "signInWithPasskey", as: Payload.self
            ).tokens
        }
    }

    public func signUp(email: String, password: String, name: String) async throws -> String {
        let query = "mutation signUp($email: String!, $password: String!, $name: String!) { signUp(data: { email: $email, password: $password, name: $name }) }"
        _ = try await execute(query, ["email": email, "password": password, "name": name], field: "signUp", as: Bool.self)
        return EmailAddress.normalized(email)
    }

    public func resendVerification(email: String) async throws {
        let query = "mutation resend($email: String!) { resendVerificationEmail(email: $email) }"
        _ = try await execute(query, ["email": email], field: "resendVerificationEmail", as: Bool.self)
    }

    public func requestPasswordReset(email: String) async throws {
        let query = "mutation forgot($email: String!) { requestPasswordReset(email: $email) }"
        _ = try await execute(query, ["email": email], field: "requestPasswordReset", as: Bool.self)
    }

    public func sendEmailCode(email: String, createUser: Bool) async throws {
        let query = "mutation sendEmailCode($email: String!) { sendEmailCode(email: $email, createUser: \(createUser)) }"
        _ = try await execute(query, ["email": email], field: "sendEmailCode", as: Bool.self)
    }

    public func sendPhoneCode(phone: String, country: String?) async throws -> PhoneCodeSent {
        var variables = ["phone": phone]
        variables["country"] = country
        return try await execute(Self.sendPhoneCode, variables, field: "sendPhoneCode", as: Code.self).sent
    }

    public func resendPhoneCode(verificationID: String, phone: String) async throws -> PhoneCodeSent {
        try await execute(Self.resendPhoneCode, ["id": verificationID], field: "resendPhoneCode", as: Code.self).sent
    }

    /// GraphQL's camel-case spelling of ``PhoneCodeSent``.
    struct Code: Decodable {
        let verificationId: String
        let phoneMasked: String
        let expiresIn: Int
        let resendAfter: Int
        let codeLength: Int

        var sent: PhoneCodeSent {
            PhoneCodeSent(verificationID: verificationId, phoneMasked: phoneMasked, expiresIn: expiresIn, resendAfter: resendAfter, codeLength: codeLength)
        }
    }

    public func signOut(accessToken: String, scope: SignOutScope) async throws {
        _ = try await execute(Self.logout, ["scope": scope.rawValue], field: "logout", as: Bool.self, bearer: accessToken)
    }

    /// GraphQL's `deleteAccount` answers `true` either way: a grace period's date is not said.
    public func deleteAccount(accessToken: String, password: String?) async throws -> Date? {
        let query = "mutation deleteAccount($password: String) { deleteAccount(password: $password) }"
        _ = try await execute(query, ["password": password].compactMapValues { $0 }, field: "deleteAccount", as: Bool.self, bearer: accessToken)
        return nil
    }

    public func user(accessToken: String, timeout: TimeInterval?) async throws -> SignedInUser {
        try await execute(Self.me, [:], field: "me", as: SignedInUser.self, bearer: accessToken, timeout: timeout)
    }

    /// Runs one operation and returns its one root field.
    func execute<T: Decodable>(
        _ query: String, _ variables: [String: String], field: String, as type: T.Type,
        bearer: String? = nil, timeout: TimeInterval? = nil
    ) async throws -> T {
        let body = Request(query: query, variables: variables)
        let request = try JSONExchange.request(endpoint, body: body, bearer: bearer, timeout: timeout)
        let data = try await exchange.send(request) { response, data in
            (try? JSONDecoder().decode(Response<T>.self, from: data))?.errors?.first?.authError ?? ResponseError.map(response, data)
        }
        let response = try JSONExchange.decode(Response<T>.self, from: data, expected: "GraphQL response")
        if let error = response.errors?.first { throw error.authError }
        guard let value = response.data?[field] else { throw AuthError.malformedResponse("the GraphQL response has no \(field)") }
        return value
    }

    struct Request: Encodable {
        let query: String
        let variables: [String: String]
    }

    struct Response<T: Decodable>: Decodable {
        let data: [String: T]?
        let errors: [GraphQLErrorBody]?
    }

    struct Payload: Decodable {
        let token: String
        let refreshToken: String
        let expiresIn: Int
        let user: SignedInUser
        var secondFactors: [Factor]?
        var recoveryCodes: [String]?

        var tokens: TokenResponse {
            get throws {
                var response = try TokenResponse(accessToken: token, refreshToken: refreshToken, expiresIn: expiresIn, user: user).checked()
                response.secondFactors = (secondFactors ?? []).map(\.summary)
                response.recoveryCodes = recoveryCodes
                return response
            }
        }
    }

    /// A second factor as the schema spells it.
    struct Factor: Decodable {
        let id: String
        let type: String
        let friendlyName: String
        let status: String

        var summary: FactorSummary { FactorSummary(id: id, type: type, friendlyName: friendlyName, status: status) }
    }
}

/// One entry of a GraphQL response's `errors`.
struct GraphQLErrorBody: Decodable {
    struct Extensions: Decodable {
        let code: String?
        let retryAfter: Int?
    }

    let message: String
    let extensions: Extensions?

    var authError: AuthError {
        guard let raw = extensions?.code, let code = GraphQLErrorCode(rawValue: raw) else {
            // A code of a newer server (or none): passed on as it came, for the app to read.
            return .server(status: 400, code: ServerErrorCode(rawValue: extensions?.code ?? "graphql_error"), message: message)
        }
        switch code {
        case .invalidCredentials: return .invalidCredentials
        case .accountLocked: return .accountLocked
        case .emailNotVerified: return .emailNotVerified
        case .rateLimited: return .rateLimited(retryAfter: extensions?.retryAfter)
        case .resendTooSoon: return .resendTooSoon(retryAfter: max(1, extensions?.retryAfter ?? 1))
        case .unauthenticated: return .server(status: 401, code: .invalidToken, message: message)
        case .invalidCode: return .invalidCode(attemptsLeft: nil)
        case .internalServerError: return .serverError(status: 500)
        case .serverBusy: return .serverError(status: 503)
        case .invalidRefreshToken, .refreshTokenReused, .sessionExpired, .sessionRevoked:
            return .server(status: 401, code: code.serverCode ?? .invalidRefreshToken, message: message)
        default:
            return .server(status: 400, code: code.serverCode ?? .invalidRequest, message: message)
        }
    }
}
