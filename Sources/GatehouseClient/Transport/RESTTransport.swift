import Foundation
import LoginCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Seed 000's REST contract: `POST /api/auth/login`, `/refresh`, `/logout`, `GET /api/me`.
public struct RESTTransport: PhoneCodeTransport, AccountTransport, AccountDeletionTransport {
    /// Where each call goes, relative to the base URL.
    public struct Paths: Sendable {
        public var login = "api/auth/login"
        public var refresh = "api/auth/refresh"
        public var logout = "api/auth/logout"
        public var me = "api/me"
        public var phoneCode = "api/auth/phone/otp"
        public var phoneResend = "api/auth/phone/otp/resend"
        public var phoneVerify = "api/auth/phone/verify"
        /// Seed 002's Sign in with Google.
        public var google = "auth/google"
        public var googleFlowToken = "auth/google/token"
        public var apple = "auth/apple"
        /// Issue 22's account lifecycle.
        public var signUp = "api/auth/signup"
        public var verifyEmail = "api/auth/email/verify"
        public var resendVerification = "api/auth/email/resend"
        public var forgotPassword = "api/auth/password/forgot"
        public var resetPassword = "api/auth/password/reset"
        /// Issue 39's mailed sign-in code.
        public var emailCode = "api/auth/email/otp"
        public var emailCodeVerify = "api/auth/email/otp/verify"
        /// Issue 39's guest accounts.
        public var anonymous = "api/auth/anonymous"
        /// Issue 23's passkeys: `…/registration/options`, `…/authentication/verify`, `…/{id}`.
        public var passkeys = "api/auth/passkeys"
        /// Issue 24's device list: `GET` lists, `DELETE …/{id}` ends one.
        public var sessions = "api/sessions"
        public init() {}
    }

    public let baseURL: URL
    let paths: Paths
    let exchange: JSONExchange

    /// Creates a transport; throws ``AuthError/insecureURL(_:)`` for plain http off loopback.
    public init(baseURL: URL, paths: Paths = Paths(), http: any HTTPExecutor = URLSessionExecutor()) throws {
        self.baseURL = try ServerURL.validated(baseURL)
        self.paths = paths
        exchange = JSONExchange(http: SignUpBindingExecutor(wrapping: http))
    }

    public func token(_ grant: AuthGrant) async throws -> TokenResponse {
        switch grant {
        case .password(let identifier, let password):
            try tokens(await send(JSONExchange.request(url(paths.login), body: ["email": identifier, "password": password])))
        case .refreshToken(let token):
            try tokens(await send(JSONExchange.request(url(paths.refresh), body: ["refresh_token": token])))
        case .phoneCode(let id, _, let code):
            try tokens(await send(JSONExchange.request(url(paths.phoneVerify), body: ["verification_id": id, "code": code])))
        case .googleCode(let code, let redirectURI, let verifier):
            try await google(["code": code, "redirect_uri": redirectURI, "code_verifier": verifier], path: paths.google)
        case .googleIDToken(let token, let nonce):
            try await google(["id_token": token, "nonce": nonce], path: paths.google)
        case .flowCode(let code, let verifier):
            try await google(["auth_code": code, "code_verifier": verifier], path: paths.googleFlowToken)
        case .apple(let token, let nonce, let name):
            try await google(["id_token": token, "nonce": nonce, "name": name], path: paths.apple)
        case .emailLink(let proof):
            try tokens(await send(JSONExchange.request(url(paths.verifyEmail), body: proof.fields)))
        case .emailCode(let proof):
            try tokens(await send(JSONExchange.request(url(paths.emailCodeVerify), body: proof.fields)))
        case .anonymous:
            try tokens(await send(JSONExchange.request(url(paths.anonymous), body: [String: String]())))
        case .passwordReset(let proof, let password):
            try tokens(await send(JSONExchange.request(url(paths.resetPassword), body: proof.fields.merging(["password": password]) { a, _ in a })))
        case .passkey(let credential):
            try await passkeyToken(credential)
        }
    }

    public func signUp(email: String, password: String, name: String) async throws -> String {
        struct Accepted: Decodable { let email: String }
        let data = try await send(JSONExchange.request(url(paths.signUp), body: ["email": email, "password": password, "name": name]))
        return try JSONExchange.decode(Accepted.self, from: data, expected: "sign-up answer").email
    }

    public func resendVerification(email: String) async throws {
        _ = try await send(JSONExchange.request(url(paths.resendVerification), body: ["email": email]))
    }

    public func requestPasswordReset(email: String) async throws {
        _ = try await send(JSONExchange.request(url(paths.forgotPassword), body: ["email": email]))
    }

    public func sendEmailCode(email: String, createUser: Bool) async throws {
        struct Body: Encodable {
            let email: String
            let create_user: Bool
        }
        _ = try await send(JSONExchange.request(url(paths.emailCode), body: Body(email: email, create_user: createUser)))
    }

    /// Seed 002's answer (`accessToken`, `refreshToken`, `user`, `expires_in`, `isNewUser`).
    private func google(_ fields: [String: String?], path: String) async throws -> TokenResponse {
        struct Answer: Decodable {
            let accessToken: String
            let refreshToken: String
            let expires_in: Int
            let user: SignedInUser
            let isNewUser: Bool
        }
        let data = try await send(JSONExchange.request(url(path), body: fields.compactMapValues { $0 }))
        let answer = try JSONExchange.decode(Answer.self, from: data, expected: "token response")
        return try TokenResponse(
            accessToken: answer.accessToken, refreshToken: answer.refreshToken, expiresIn: answer.expires_in, user: answer.user,
            isNewUser: answer.isNewUser
        ).checked()
    }

    public func sendPhoneCode(phone: String, country: String?) async throws -> PhoneCodeSent {
        var body = ["phone": phone]
        body["country"] = country
        let data = try await send(JSONExchange.request(url(paths.phoneCode), body: body))
        return try JSONExchange.decode(PhoneCodeSent.self, from: data, expected: "code")
    }

    /// The regions the server allows for phone sign-in, the default first, named in `language`.
    public func phoneCountries(language: String = "en") async throws -> [PhoneCountry] {
        struct Answer: Decodable { let countries: [PhoneCountry] }
        var components = URLComponents(url: url("api/auth/phone/countries"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "lang", value: language)]
        let request = try JSONExchange.request(components?.url ?? url("api/auth/phone/countries"), method: "GET")
        return try JSONExchange.decode(Answer.self, from: try await send(request), expected: "countries").countries
    }

    public func resendPhoneCode(verificationID: String, phone: String) async throws -> PhoneCodeSent {
        let data = try await send(JSONExchange.request(url(paths.phoneResend), body: ["verification_id": verificationID]))
        return try JSONExchange.decode(PhoneCodeSent.self, from: data, expected: "code")
    }

    public func signOut(accessToken: String, scope: SignOutScope) async throws {
        var components = URLComponents(url: url(paths.logout), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "scope", value: scope.rawValue)]
        _ = try await send(JSONExchange.request(components?.url ?? url(paths.logout), bearer: accessToken))
    }

    public func deleteAccount(accessToken: String, password: String?) async throws -> Date? {
        struct Body: Encodable { let password: String? }
        let data = try await send(JSONExchange.request(url(paths.me), method: "DELETE", body: Body(password: password), bearer: accessToken))
        return data.isEmpty ? nil : try JSONExchange.decode(ScheduledDeletion.self, from: data, expected: "scheduled deletion").dueAt
    }

    public func user(accessToken: String, timeout: TimeInterval?) async throws -> SignedInUser {
        let request = try JSONExchange.request(url(paths.me), method: "GET", bearer: accessToken, timeout: timeout)
        return try JSONExchange.decode(SignedInUser.self, from: try await send(request), expected: "user")
    }

    func url(_ path: String) -> URL {
        baseURL.appendingPathComponent(path)
    }

    func send(_ request: URLRequest) async throws -> Data {
        try await exchange.send(request, failure: ResponseError.map)
    }

    func tokens(_ data: Data) throws -> TokenResponse {
        try JSONExchange.decode(TokenResponse.self, from: data, expected: "token response").checked()
    }
}
