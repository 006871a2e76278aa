import Foundation
import GatehouseModel

/// Two-step verification over seed 001's GraphQL API (the schema's `factors`, `enrolFactor`,
/// `verifyFactor`, `challengeFactor`, `verifySecondFactor`, `removeFactor` and
/// `regenerateRecoveryCodes`).
extension GraphQLTransport: MFATransport {
    static let authFields = "token refreshToken expiresIn \(userFields) \(factorFields) recoveryCodes"

    struct Enrolled: Decodable {
        let factor: Factor
        let secret: String
        let uri: String
        let qrCode: String?
    }

    struct Challenged: Decodable {
        let challengeId: String
        let expiresIn: Int
    }

    public func factors(accessToken: String) async throws -> MFAFactorList {
        struct Listed: Decodable {
            let factors: [Factor]
            let recoveryCodesLeft: Int
        }
        let query = "query { factors { id type friendlyName status } recoveryCodesLeft }"
        let body = Request(query: query, variables: [:])
        let request = try JSONExchange.request(endpoint, body: body, bearer: accessToken)
        let data = try await exchange.send(request) { response, data in
            (try? JSONDecoder().decode(Response<Int>.self, from: data))?.errors?.first?.authError ?? ResponseError.map(response, data)
        }
        struct Whole: Decodable {
            let data: Listed?
            let errors: [GraphQLErrorBody]?
        }
        let whole = try JSONExchange.decode(Whole.self, from: data, expected: "GraphQL response")
        if let error = whole.errors?.first { throw error.authError }
        guard let listed = whole.data else { throw AuthError.malformedResponse("the GraphQL response has no factors") }
        return MFAFactorList(factors: listed.factors.map(\.summary), recoveryCodesLeft: listed.recoveryCodesLeft)
    }

    public func enrol(friendlyName: String?, accessToken: String) async throws -> MFAEnrolment {
        let query = "mutation($name: String) { enrolFactor(friendlyName: $name) { factor { id type friendlyName status } secret uri qrCode } }"
        let enrolled = try await execute(
            query, ["name": friendlyName].compactMapValues { $0 }, field: "enrolFactor", as: Enrolled.self, bearer: accessToken
        )
        return MFAEnrolment(factor: enrolled.factor.summary, secret: enrolled.secret, uri: enrolled.uri, qrCode: enrolled.qrCode)
    }

    public func verifyEnrolment(factorID: String, code: String, accessToken: String) async throws -> TokenResponse {
        let query = "mutation($f: String!, $c: String!) { verifyFactor(factorId: $f, code: $c) { \(Self.authFields) } }"
        return try await execute(query, ["f": factorID, "c": code], field: "verifyFactor", as: Payload.self, bearer: accessToken).tokens
    }

    public func challenge(factorID: String?, accessToken: String) async throws -> MFAChallenge {
        let query = "mutation($f: String) { challengeFactor(factorId: $f) { challengeId expiresIn } }"
        let challenged = try await execute(
            query, ["f": factorID].compactMapValues { $0 }, field: "challengeFactor", as: Challenged.self, bearer: accessToken
        )
        return MFAChallenge(challengeID: challenged.challengeId, expiresIn: challenged.expiresIn)
    }

    public func verify(factorID: String?, challengeID: String, answer: MFAAnswer, accessToken: String) async throws -> TokenResponse {
        let query = "mutation($id: String!, $c: String, $r: String) { verifySecondFactor(challengeId: $id, code: $c, recoveryCode: $r) { \(Self.authFields) } }"
        var variables = ["id": challengeID]
        switch answer {
        case .code(let code): variables["c"] = code
        case .recoveryCode(let code): variables["r"] = code
        }
        return try await execute(query, variables, field: "verifySecondFactor", as: Payload.self, bearer: accessToken).tokens
    }

    public func unenrol(factorID: String, accessToken: String) async throws {
        _ = try await execute("mutation($f: String) { removeFactor(factorId: $f) }", ["f": factorID], field: "removeFactor", as: Bool.self, bearer: accessToken)
    }

    public func regenerateRecoveryCodes(accessToken: String) async throws -> [String] {
        try await execute("mutation { regenerateRecoveryCodes }", [:], field: "regenerateRecoveryCodes", as: [String].self, bearer: accessToken)
    }
}
