import Foundation
import GatehouseModel
import LoginCore

/// A transport that can add (or change) the signed-in account's phone (issue 39): REST,
/// GraphQL, and Supabase Auth (`PUT /user {"phone"}`, `verify type=phone_change`).
public protocol PhoneAddTransport: AuthTransport {
    /// Sends a code to `phone` (E.164, or national with `country`) for the signed-in account.
    func addPhone(accessToken: String, phone: String, country: String?) async throws -> PhoneCodeSent
    /// Adds the phone with its code; the code never signs in.
    func confirmAddedPhone(accessToken: String, verificationID: String, phone: String, code: String) async throws
}

extension AuthClient {
    /// Sends a code that adds (or changes) the signed-in account's phone: how a guest keeps its
    /// account with a phone. Confirm with ``confirmAddedPhone(code:for:)``.
    public func addPhone(_ request: PhoneCodeRequest) async throws -> PhoneVerification {
        let session = try await self.session()
        let sent = try await phoneAddTransport().addPhone(accessToken: session.accessToken, phone: request.phone, country: request.country)
        return PhoneVerification(sent: sent, phone: request.phone)
    }

    /// Adds the phone ``addPhone(_:)`` sent a code to; the session stays as it is.
    public func confirmAddedPhone(code: String, for verification: PhoneVerification) async throws {
        let session = try await self.session()
        try await phoneAddTransport().confirmAddedPhone(
            accessToken: session.accessToken, verificationID: verification.sent.verificationID, phone: verification.phone, code: code
        )
    }

    private func phoneAddTransport() throws -> any PhoneAddTransport {
        try supporting((any PhoneAddTransport).self, else: "add a phone")
    }
}

extension RESTTransport: PhoneAddTransport {
    public func addPhone(accessToken: String, phone: String, country: String?) async throws -> PhoneCodeSent {
        let body = ["phone": phone, "country": country].compactMapValues { $0 }
        let data = try await send(JSONExchange.request(url("api/auth/phone/add"), body: body, bearer: accessToken))
        return try JSONExchange.decode(PhoneCodeSent.self, from: data, expected: "code")
    }

    public func confirmAddedPhone(accessToken: String, verificationID: String, phone: String, code: String) async throws {
        let body = ["verification_id": verificationID, "code": code]
        _ = try await send(JSONExchange.request(url("api/auth/phone/add/verify"), body: body, bearer: accessToken))
    }
}

extension GraphQLTransport: PhoneAddTransport {
    public func addPhone(accessToken: String, phone: String, country: String?) async throws -> PhoneCodeSent {
        let query = "mutation addPhone($phone: String!, $country: String) { addPhone(data: { phone: $phone, country: $country }) { \(Self.codeFields) } }"
        let variables = ["phone": phone, "country": country].compactMapValues { $0 }
        return try await execute(query, variables, field: "addPhone", as: Code.self, bearer: accessToken).sent
    }

    public func confirmAddedPhone(accessToken: String, verificationID: String, phone: String, code: String) async throws {
        let query = "mutation verifyAddPhone($id: String!, $code: String!) { verifyAddPhone(data: { verificationId: $id, code: $code }) { id } }"
        struct Added: Decodable { let id: String }
        _ = try await execute(query, ["id": verificationID, "code": code], field: "verifyAddPhone", as: Added.self, bearer: accessToken)
    }
}

extension SupabaseTransport: PhoneAddTransport {
    /// `PUT /user {"phone"}`: GoTrue answers the user, so the code's timings are the project's
    /// settings and its handle is the number.
    public func addPhone(accessToken: String, phone: String, country: String?) async throws -> PhoneCodeSent {
        let request = try JSONExchange.request(url("user"), method: "PUT", body: ["phone": phone], bearer: accessToken, headers: headers)
        _ = try await exchange.send(request, failure: Self.failure(tokenRejected: true))
        return codeSent(to: phone, id: nil)
    }

    /// `POST /verify {"type": "phone_change", "phone", "token"}`.
    public func confirmAddedPhone(accessToken: String, verificationID: String, phone: String, code: String) async throws {
        let body = ["type": "phone_change", "phone": phone, "token": code]
        let request = try JSONExchange.request(url("verify"), body: body, headers: headers)
        _ = try await exchange.send(request, failure: Self.failure(tokenRejected: false))
    }
}
