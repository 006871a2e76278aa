import Foundation
import GatehouseModel
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Supabase Auth's MFA API (`/factors`), as supabase-swift's `auth.mfa` calls it. GoTrue has no
/// recovery codes: asking for them is refused as unsupported.
extension SupabaseTransport: MFATransport {
    // GoTrue's own key names, as its JSON spells them.
    // swiftlint:disable identifier_name
    struct Enrolled: Decodable {
        struct TOTP: Decodable {
            let qr_code: String
            let secret: String
            let uri: String
        }

        let id: String
        let type: String
        let friendly_name: String?
        let totp: TOTP
    }

    struct Challenged: Decodable {
        let id: String
        let expires_at: Int
    }
    // swiftlint:enable identifier_name

    public func factors(accessToken: String) async throws -> MFAFactorList {
        let request = try JSONExchange.request(url("user"), method: "GET", bearer: accessToken, headers: headers)
        let user = try JSONExchange.decode(User.self, from: try await send(request), expected: "user")
        return MFAFactorList(factors: (user.factors ?? []).map(\.summary), recoveryCodesLeft: 0)
    }

    public func enrol(friendlyName: String?, accessToken: String) async throws -> MFAEnrolment {
        var body = ["factor_type": "totp"]
        body["friendly_name"] = friendlyName
        let request = try JSONExchange.request(url("factors"), body: body, bearer: accessToken, headers: headers)
        let enrolled = try JSONExchange.decode(Enrolled.self, from: try await send(request), expected: "enrolment")
        return MFAEnrolment(
            factor: FactorSummary(id: enrolled.id, type: enrolled.type, friendlyName: enrolled.friendly_name ?? "", status: "unverified"),
            secret: enrolled.totp.secret, uri: enrolled.totp.uri, qrCode: enrolled.totp.qr_code
        )
    }

    public func verifyEnrolment(factorID: String, code: String, accessToken: String) async throws -> TokenResponse {
        let challenge = try await challenge(factorID: factorID, accessToken: accessToken)
        return try await verify(factorID: factorID, challengeID: challenge.challengeID, answer: .code(code), accessToken: accessToken)
    }

    public func challenge(factorID: String?, accessToken: String) async throws -> MFAChallenge {
        guard let factorID else { throw Self.noRecoveryCodes }
        let path = url("factors/\(factorID)/challenge")
        let request = try JSONExchange.request(path, body: [String: String](), bearer: accessToken, headers: headers)
        let challenged = try JSONExchange.decode(Challenged.self, from: try await send(request), expected: "challenge")
        return MFAChallenge(challengeID: challenged.id, expiresIn: max(0, challenged.expires_at - Int(Date().timeIntervalSince1970)))
    }

    public func verify(factorID: String?, challengeID: String, answer: MFAAnswer, accessToken: String) async throws -> TokenResponse {
        guard let factorID, case .code(let code) = answer else { throw Self.noRecoveryCodes }
        let body = ["challenge_id": challengeID, "code": code]
        return try await session(from: JSONExchange.request(url("factors/\(factorID)/verify"), body: body, bearer: accessToken, headers: headers))
    }

    public func unenrol(factorID: String, accessToken: String) async throws {
        _ = try await send(JSONExchange.request(url("factors/\(factorID)"), method: "DELETE", bearer: accessToken, headers: headers))
    }

    public func regenerateRecoveryCodes(accessToken: String) async throws -> [String] {
        throw Self.noRecoveryCodes
    }

    private func send(_ request: URLRequest) async throws -> Data {
        try await exchange.send(request, failure: Self.failure(tokenRejected: true))
    }

    static let noRecoveryCodes = AuthError.server(status: 0, code: "unsupported", message: "Supabase Auth has no recovery codes")
}
