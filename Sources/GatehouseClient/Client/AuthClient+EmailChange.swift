import Foundation
import GatehouseModel

/// A transport that can change the signed-in account's email (issue 39): REST, GraphQL and
/// Supabase Auth (`PUT /user {"email"}`, `verify type=email_change`) all can.
public protocol EmailChangeTransport: AuthTransport {
    /// Mails the new address a link and code, and the current one a link; returns the new address.
    func requestEmailChange(accessToken: String, email: String, password: String?) async throws -> String
    /// Confirms one address with its mail's code or link token.
    func confirmEmailChange(_ proof: EmailProof) async throws -> EmailChangeStatus
}

extension AuthClient {
    /// Starts changing the signed-in account's email to `email` (issue 39).
    ///
    /// Both addresses confirm (the new one with the code or link it is mailed, the current one
    /// with its link); the change happens when both have. The server wants the `password`, or
    /// a sign-in in the last five minutes. An address another account has answers alike.
    /// - Returns: the normalised new address.
    @discardableResult
    public func changeEmail(to email: String, password: String? = nil) async throws -> String {
        let session = try await self.session()
        return try await emailChangeTransport().requestEmailChange(accessToken: session.accessToken, email: email, password: password)
    }

    /// Confirms one address of a pending change; ``EmailChangeStatus/done`` once both have.
    public func confirmEmailChange(_ proof: EmailProof) async throws -> EmailChangeStatus {
        try await emailChangeTransport().confirmEmailChange(proof)
    }

    private func emailChangeTransport() throws -> any EmailChangeTransport {
        try supporting((any EmailChangeTransport).self, else: "change the email")
    }
}

extension RESTTransport: EmailChangeTransport {
    public func requestEmailChange(accessToken: String, email: String, password: String?) async throws -> String {
        struct Body: Encodable {
            let email: String
            let password: String?
        }
        let request = try JSONExchange.request(url("api/auth/email/change"), body: Body(email: email, password: password), bearer: accessToken)
        return try JSONExchange.decode(EmailChangeAnswer.self, from: try await send(request), expected: "email change").email
    }

    public func confirmEmailChange(_ proof: EmailProof) async throws -> EmailChangeStatus {
        let body = switch proof {
        case .token(let token): ["token": token]
        case .code(let email, let code): ["email": email, "code": code]
        }
        let request = try JSONExchange.request(url("api/auth/email/change/verify"), body: body)
        return try JSONExchange.decode(EmailChangeAnswer.self, from: try await send(request), expected: "email change").status
    }
}

extension GraphQLTransport: EmailChangeTransport {
    /// GraphQL's `EmailChange`, whose status is one of ``EmailChangeStatus``'s raw values.
    struct EmailChange: Decodable {
        let status: EmailChangeStatus
        let email: String
    }

    public func requestEmailChange(accessToken: String, email: String, password: String?) async throws -> String {
        let query = "mutation changeEmail($email: String!, $password: String) { changeEmail(email: $email, password: $password) { status email } }"
        let variables = ["email": email, "password": password].compactMapValues { $0 }
        return try await execute(query, variables, field: "changeEmail", as: EmailChange.self, bearer: accessToken).email
    }

    public func confirmEmailChange(_ proof: EmailProof) async throws -> EmailChangeStatus {
        let (argument, variables): (String, [String: String]) = switch proof {
        case .token(let token): ("{token: $token}", ["token": token])
        case .code(let email, let code): ("{email: $email, code: $code}", ["email": email, "code": code])
        }
        let declared = variables.keys.sorted().map { "$\($0): String!" }.joined(separator: ", ")
        let query = "mutation confirmEmailChange(\(declared)) { confirmEmailChange(data: \(argument)) { status email } }"
        return try await execute(query, variables, field: "confirmEmailChange", as: EmailChange.self).status
    }
}

extension SupabaseTransport: EmailChangeTransport {
    /// `PUT /user {"email"}`: GoTrue's secure email change.
    public func requestEmailChange(accessToken: String, email: String, password: String?) async throws -> String {
        let body = ["email": email, "current_password": password].compactMapValues { $0 }
        let request = try JSONExchange.request(url("user"), method: "PUT", body: body, bearer: accessToken, headers: headers)
        _ = try await exchange.send(request, failure: Self.failure(tokenRejected: true))
        return EmailAddress.normalized(email)
    }

    /// `POST /verify type=email_change`: GoTrue's `{"msg", "code": "200"}` while the other
    /// address has not confirmed, the user once both have.
    public func confirmEmailChange(_ proof: EmailProof) async throws -> EmailChangeStatus {
        struct Single: Decodable { let msg: String? }
        let request = try JSONExchange.request(url("verify"), body: Self.verifyBody("email_change", proof), headers: headers)
        let data = try await exchange.send(request, failure: Self.failure(tokenRejected: false))
        return (try? JSONDecoder().decode(Single.self, from: data))?.msg != nil ? .awaitingOther : .done
    }
}
