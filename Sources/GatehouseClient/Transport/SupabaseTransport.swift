import Foundation
import GatehouseModel
import LoginCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Supabase Auth (GoTrue): `POST /token?grant_type=password|refresh_token`, `GET /user`,
/// `POST /logout?scope=`, each with the project's anon key in `apikey` (seed 003).
///
/// GoTrue's `error_code`s become ``AuthError``s: `invalid_credentials`, `user_banned` (locked),
/// `email_not_confirmed`, and for refreshes `refresh_token_already_used` (revoked),
/// `refresh_token_not_found` and `session_expired` (expired) and `session_not_found` (revoked).
/// A rejected access token is reported as a 401, which makes the SDK refresh once.
public struct SupabaseTransport: PhoneCodeTransport, AccountTransport {
    /// The Auth URL, such as `https://project.supabase.co/auth/v1`.
    public let authURL: URL
    let anonKey: String
    let exchange: JSONExchange

    /// Creates a transport; throws ``AuthError/insecureURL(_:)`` for plain http off loopback.
    /// - Parameters:
    ///   - authURL: the Auth API's URL, ending in `/auth/v1` on Supabase.
    ///   - anonKey: the project's public anon key.
    ///   - http: how requests are sent.
    public init(authURL: URL, anonKey: String, http: any HTTPExecutor = URLSessionExecutor()) throws {
        self.authURL = try ServerURL.validated(authURL)
        self.anonKey = anonKey
        exchange = JSONExchange(http: SignUpBindingExecutor(wrapping: http))
    }

    public func token(_ grant: AuthGrant) async throws -> TokenResponse {
        switch grant {
        case .password(let identifier, let password):
            try await token(grant: "password", body: ["email": identifier, "password": password])
        case .refreshToken(let refreshToken):
            try await token(grant: "refresh_token", body: ["refresh_token": refreshToken])
        case .phoneCode(_, let phone, let code):
            try await session(from: JSONExchange.request(url("verify"), body: ["type": "sms", "phone": phone, "token": code], headers: headers))
        case .googleIDToken(let idToken, let nonce):
            try await token(grant: "id_token", body: ["provider": "google", "id_token": idToken, "nonce": nonce].compactMapValues { $0 })
        case .apple(let idToken, let nonce, _):
            // GoTrue takes no name with the token; an app sets it with `PUT /user` afterwards.
            try await token(grant: "id_token", body: ["provider": "apple", "id_token": idToken, "nonce": nonce].compactMapValues { $0 })
        case .flowCode(let code, let verifier):
            try await token(grant: "pkce", body: ["auth_code": code, "code_verifier": verifier])
        case .googleCode, .passkey:
            throw grant.unsupported(by: "Supabase Auth")
        case .emailLink(let proof):
            try await session(from: JSONExchange.request(url("verify"), body: Self.verifyBody("signup", proof), headers: headers))
        case .emailCode(let proof):
            // GoTrue's `verifyOtp`: a code as `type: email`, a link's token hash as `magiclink`.
            try await session(from: JSONExchange.request(
                url("verify"), body: Self.verifyBody(proof.isToken ? "magiclink" : "email", proof), headers: headers
            ))
        case .anonymous:
            // GoTrue's `signInAnonymously`: a sign-up with neither an email nor a phone.
            try await session(from: JSONExchange.request(url("signup"), body: ["data": [String: String]()], headers: headers))
        case .passwordReset(let proof, let password):
            // GoTrue's recovery: the mail's secret opens a session, which then sets the password.
            try await recover(proof, password: password)
        }
    }

    /// `POST /verify`'s body for a mail: `token_hash`, or `email` and the code as `token`.
    static func verifyBody(_ type: String, _ proof: EmailProof) -> [String: String] {
        switch proof {
        case .token(let hash): ["type": type, "token_hash": hash]
        case .code(let email, let code): ["type": type, "email": email, "token": code]
        }
    }

    private func recover(_ proof: EmailProof, password: String) async throws -> TokenResponse {
        let signedIn = try await session(from: JSONExchange.request(url("verify"), body: Self.verifyBody("recovery", proof), headers: headers))
        let update = try JSONExchange.request(url("user"), method: "PUT", body: ["password": password], bearer: signedIn.accessToken, headers: headers)
        _ = try await exchange.send(update, failure: Self.failure(tokenRejected: false))
        return signedIn
    }

    public func signUp(email: String, password: String, name: String) async throws -> String {
        struct Body: Encodable {
            let email: String
            let password: String
            let data: [String: String]
        }
        let request = try JSONExchange.request(url("signup"), body: Body(email: email, password: password, data: ["full_name": name]), headers: headers)
        let data = try await exchange.send(request, failure: Self.failure(tokenRejected: false))
        return try JSONExchange.decode(User.self, from: data, expected: "user").signedIn.email
    }

    public func resendVerification(email: String) async throws {
        let request = try JSONExchange.request(url("resend"), body: ["type": "signup", "email": email], headers: headers)
        _ = try await exchange.send(request, failure: Self.failure(tokenRejected: false))
    }

    public func requestPasswordReset(email: String) async throws {
        let request = try JSONExchange.request(url("recover"), body: ["email": email], headers: headers)
        _ = try await exchange.send(request, failure: Self.failure(tokenRejected: false))
    }

    /// `POST /otp {"email", "create_user"}`: GoTrue's `signInWithOtp` for an address.
    public func sendEmailCode(email: String, createUser: Bool) async throws {
        struct Body: Encodable {
            let email: String
            let create_user: Bool
        }
        let request = try JSONExchange.request(url("otp"), body: Body(email: email, create_user: createUser), headers: headers)
        _ = try await exchange.send(request, failure: Self.failure(tokenRejected: false))
    }

    /// `POST /otp`: GoTrue answers only a message id, so the code's timings are the project's
    /// settings (``phoneCodeSettings``), not the server's word.
    public func sendPhoneCode(phone: String, country: String?) async throws -> PhoneCodeSent {
        let body = OTPBody(phone: phone, create_user: false)
        let request = try JSONExchange.request(url("otp"), body: body, headers: headers)
        let data = try await exchange.send(request, failure: Self.failure(tokenRejected: false))
        let id = (try? JSONDecoder().decode(OTPAnswer.self, from: data).message_id) ?? nil
        return codeSent(to: phone, id: id)
    }

    /// A code sent to `phone`, as the project's settings describe it (GoTrue reports none).
    func codeSent(to phone: String, id: String?) -> PhoneCodeSent {
        let settings = phoneCodeSettings
        let masked = String(phone.dropLast(4).map { $0.isNumber ? "•" : $0 }) + phone.suffix(4)
        return PhoneCodeSent(
            verificationID: id ?? phone, phoneMasked: masked, expiresIn: settings.expiresIn,
            resendAfter: settings.resendAfter, codeLength: settings.codeLength
        )
    }

    /// GoTrue resends by sending again to the phone.
    public func resendPhoneCode(verificationID: String, phone: String) async throws -> PhoneCodeSent {
        try await sendPhoneCode(phone: phone, country: nil)
    }

    /// A Supabase project's SMS code settings (its dashboard's), which `/otp` does not report.
    public var phoneCodeSettings = (expiresIn: 300, resendAfter: 60, codeLength: 6)

    struct OTPBody: Encodable {
        let phone: String
        let create_user: Bool
    }

    struct OTPAnswer: Decodable {
        let message_id: String?
    }

    public func signOut(accessToken: String, scope: SignOutScope) async throws {
        let request = try JSONExchange.request(url("logout", query: ["scope": scope.rawValue]), bearer: accessToken, headers: headers)
        _ = try await exchange.send(request, failure: Self.failure(tokenRejected: true))
    }

    public func user(accessToken: String, timeout: TimeInterval?) async throws -> SignedInUser {
        let request = try JSONExchange.request(url("user"), method: "GET", bearer: accessToken, headers: headers, timeout: timeout)
        let data = try await exchange.send(request, failure: Self.failure(tokenRejected: true))
        return try JSONExchange.decode(User.self, from: data, expected: "user").signedIn
    }

    var headers: [String: String] { ["apikey": anonKey] }

    func url(_ path: String, query: [String: String] = [:]) -> URL {
        let url = authURL.appendingPathComponent(path)
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        if !query.isEmpty { components?.queryItems = query.map { URLQueryItem(name: $0.key, value: $0.value) } }
        return components?.url ?? url
    }

    private func token(grant: String, body: [String: String]) async throws -> TokenResponse {
        try await session(from: JSONExchange.request(url("token", query: ["grant_type": grant]), body: body, headers: headers))
    }

    func session(from request: URLRequest) async throws -> TokenResponse {
        let data = try await exchange.send(request, failure: Self.failure(tokenRejected: false))
        let session = try JSONExchange.decode(TokenBody.self, from: data, expected: "session")
        var response = try TokenResponse(
            accessToken: session.access_token, refreshToken: session.refresh_token,
            expiresIn: session.expires_in, user: session.user.signedIn
        ).checked()
        // GoTrue says a challenge is due by the user's verified factors beside an `aal1` token.
        response.secondFactors = (session.user.factors ?? []).filter { $0.status == "verified" }.map(\.summary)
        return response
    }

    /// Maps a GoTrue error; with `tokenRejected`, a refused access token is a 401.
    static func failure(tokenRejected: Bool) -> @Sendable (HTTPURLResponse, Data) -> AuthError {
        { response, data in
            guard let body = try? JSONDecoder().decode(ErrorBody.self, from: data), let raw = body.error_code else {
                return ResponseError.map(response, data)
            }
            let message = body.msg ?? body.message ?? "HTTP \(response.statusCode)"
            let retryAfter = response.value(forHTTPHeaderField: "Retry-After").flatMap { Int($0) }
            guard let code = GoTrueErrorCode(rawValue: raw) else {
                // A code of a newer GoTrue: passed on as it came, for the app to read.
                if response.statusCode >= 500 { return .serverError(status: response.statusCode) }
                return .server(status: response.statusCode, code: ServerErrorCode(rawValue: raw), message: message)
            }
            switch code {
            case .invalidCredentials: return .invalidCredentials
            case .userBanned: return .accountLocked
            case .emailNotConfirmed: return .emailNotVerified
            case .overRequestRateLimit, .overEmailSendRateLimit: return .rateLimited(retryAfter: retryAfter)
            // GoTrue's "you can only request this after N seconds": the resend window, not a limit.
            case .overSMSSendRateLimit: return .resendTooSoon(retryAfter: max(1, retryAfter ?? 1))
            // Each pattern has its own `where`: a `bad_jwt` answer to a sign-in (a refused ID token) is not a session ending.
            case .badJWT where tokenRejected, .noAuthorization where tokenRejected, .sessionNotFound where tokenRejected:
                return .server(status: 401, code: .invalidToken, message: message)
            case .badJWT:
                return .server(status: response.statusCode, code: .invalidIDToken, message: message)
            default:
                if response.statusCode >= 500 { return .serverError(status: response.statusCode) }
                return .server(status: response.statusCode, code: code.serverCode ?? ServerErrorCode(rawValue: raw), message: message)
            }
        }
    }

    // GoTrue's own key names, as its JSON spells them.
    // swiftlint:disable identifier_name
    struct TokenBody: Decodable {
        let access_token: String
        let refresh_token: String
        let expires_in: Int
        let user: User
    }

    struct User: Decodable {
        struct Metadata: Decodable {
            let first_name: String?
            let last_name: String?
            let full_name: String?
            let name: String?
        }

        let id: String
        let email: String?
        let user_metadata: Metadata?
        let factors: [Factor]?

        var signedIn: SignedInUser {
            let metadata = user_metadata
            if let first = metadata?.first_name {
                return SignedInUser(id: id, email: email ?? "", firstName: first, lastName: metadata?.last_name ?? "")
            }
            return SignedInUser(id: id, email: email ?? "", name: metadata?.full_name ?? metadata?.name ?? "")
        }
    }

    struct Factor: Decodable {
        let id: String
        let friendly_name: String?
        let factor_type: String
        let status: String

        var summary: FactorSummary {
            FactorSummary(id: id, type: factor_type, friendlyName: friendly_name ?? "", status: status)
        }
    }

    struct ErrorBody: Decodable {
        let error_code: String?
        let msg: String?
        let message: String?
    }
    // swiftlint:enable identifier_name
}
