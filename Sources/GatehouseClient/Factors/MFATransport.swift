import Foundation
import GatehouseModel
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport that speaks two-step verification (issue 37).
public protocol MFATransport: AuthTransport {
    func factors(accessToken: String) async throws -> MFAFactorList
    func enrol(friendlyName: String?, accessToken: String) async throws -> MFAEnrolment
    /// The factor's first code: a token response at `aal2`, with the recovery codes.
    func verifyEnrolment(factorID: String, code: String, accessToken: String) async throws -> TokenResponse
    /// A challenge of a factor, or (no factor) one a recovery code answers.
    func challenge(factorID: String?, accessToken: String) async throws -> MFAChallenge
    /// Answers a challenge (of `factorID`, when it names one): a token response at `aal2`.
    func verify(factorID: String?, challengeID: String, answer: MFAAnswer, accessToken: String) async throws -> TokenResponse
    func unenrol(factorID: String, accessToken: String) async throws
    func regenerateRecoveryCodes(accessToken: String) async throws -> [String]
    /// A passkey's assertion as the second factor: a token response at `aal2`.
    func verifyPasskey(_ credential: PasskeyAssertionJSON, accessToken: String) async throws -> TokenResponse
}

extension MFATransport {
    /// Backends whose MFA API takes no passkey (GraphQL, Supabase Auth).
    public func verifyPasskey(_ credential: PasskeyAssertionJSON, accessToken: String) async throws -> TokenResponse {
        throw AuthError.server(status: 0, code: "unsupported", message: "This backend cannot step up with a passkey")
    }
}

/// What answers a challenge.
public enum MFAAnswer: Sendable, Equatable {
    case code(String)
    case recoveryCode(String)
}

/// The account's factors and how many recovery codes are left.
public struct MFAFactorList: Decodable, Sendable, Equatable {
    public var factors: [FactorSummary]
    public var recoveryCodesLeft: Int

    public init(factors: [FactorSummary], recoveryCodesLeft: Int) {
        self.factors = factors
        self.recoveryCodesLeft = recoveryCodesLeft
    }

    enum CodingKeys: String, CodingKey { case factors, recoveryCodesLeft = "recovery_codes_left" }
}

/// What an authenticator app needs, shown once: the secret, its URI and the URI's QR code (SVG).
public struct MFAEnrolment: Decodable, Sendable, Equatable {
    public var factor: FactorSummary
    public var secret: String
    public var uri: String
    public var qrCode: String?

    enum CodingKeys: String, CodingKey { case factor, secret, uri, qrCode = "qr_code" }
}

/// A challenge to answer within `expiresIn` seconds.
public struct MFAChallenge: Decodable, Sendable, Equatable {
    public var challengeID: String
    public var expiresIn: Int

    enum CodingKeys: String, CodingKey { case challengeID = "challenge_id", expiresIn = "expires_in" }
}

extension RESTTransport: MFATransport {
    public func factors(accessToken: String) async throws -> MFAFactorList {
        let data = try await send(JSONExchange.request(url("api/auth/mfa/factors"), method: "GET", bearer: accessToken))
        return try JSONExchange.decode(MFAFactorList.self, from: data, expected: "factor list")
    }

    public func enrol(friendlyName: String?, accessToken: String) async throws -> MFAEnrolment {
        let body = ["friendly_name": friendlyName ?? ""]
        let data = try await send(JSONExchange.request(url("api/auth/mfa/factors"), body: body, bearer: accessToken))
        return try JSONExchange.decode(MFAEnrolment.self, from: data, expected: "enrolment")
    }

    public func verifyEnrolment(factorID: String, code: String, accessToken: String) async throws -> TokenResponse {
        let path = url("api/auth/mfa/factors").appendingPathComponent(factorID).appendingPathComponent("verify")
        let data = try await send(JSONExchange.request(path, body: ["code": code], bearer: accessToken))
        return try JSONExchange.decode(TokenResponse.self, from: data, expected: "token response")
    }

    public func challenge(factorID: String?, accessToken: String) async throws -> MFAChallenge {
        var body: [String: String] = [:]
        body["factor_id"] = factorID
        let data = try await send(JSONExchange.request(url("api/auth/mfa/challenge"), body: body, bearer: accessToken))
        return try JSONExchange.decode(MFAChallenge.self, from: data, expected: "challenge")
    }

    public func verify(factorID: String?, challengeID: String, answer: MFAAnswer, accessToken: String) async throws -> TokenResponse {
        var body = ["challenge_id": challengeID]
        switch answer {
        case .code(let code): body["code"] = code
        case .recoveryCode(let code): body["recovery_code"] = code
        }
        let data = try await send(JSONExchange.request(url("api/auth/mfa/verify"), body: body, bearer: accessToken))
        return try JSONExchange.decode(TokenResponse.self, from: data, expected: "token response")
    }

    public func unenrol(factorID: String, accessToken: String) async throws {
        _ = try await send(JSONExchange.request(url("api/auth/mfa/factors").appendingPathComponent(factorID), method: "DELETE", bearer: accessToken))
    }

    public func verifyPasskey(_ credential: PasskeyAssertionJSON, accessToken: String) async throws -> TokenResponse {
        struct Body: Encodable { let credential: PasskeyAssertionJSON }
        let data = try await send(JSONExchange.request(url("api/auth/mfa/verify"), body: Body(credential: credential), bearer: accessToken))
        return try JSONExchange.decode(TokenResponse.self, from: data, expected: "token response")
    }

    public func regenerateRecoveryCodes(accessToken: String) async throws -> [String] {
        struct Codes: Decodable { let recovery_codes: [String] }
        let data = try await send(JSONExchange.request(url("api/auth/mfa/recovery-codes"), body: [String: String](), bearer: accessToken))
        return try JSONExchange.decode(Codes.self, from: data, expected: "recovery codes").recovery_codes
    }
}
