import Foundation
import GatehouseCore
import GatehouseModel
import Graphiti

/// Two-step verification for GraphQL apps (issue 37): the same feature service calls as
/// `/api/auth/mfa/…`, each answer at `aal2` an ``AuthPayload`` like `login`'s.
extension GraphQLResolver {
    package struct FactorEnrolmentPayload: Codable, Sendable {
        let factor: FactorSummary
        let secret: String
        let uri: String
        let qrCode: String?
    }

    package struct FactorChallengePayload: Codable, Sendable {
        let challengeId: String
        let expiresIn: Int
    }

    package struct EnrolArguments: Codable {
        let friendlyName: String?
    }

    package struct FactorCodeArguments: Codable {
        let factorId: String
        let code: String
    }

    package struct FactorIDArguments: Codable {
        let factorId: String?
    }

    package struct SecondFactorArguments: Codable {
        let challengeId: String
        let code: String?
        let recoveryCode: String?
    }

    package func factors(context: GraphQLContext, arguments: NoArguments) async throws -> [FactorSummary] {
        try await context.services.secondFactors().list(userID: try context.principal().user.id).map(\.summary)
    }

    package func recoveryCodesLeft(context: GraphQLContext, arguments: NoArguments) async throws -> Int {
        try await context.services.secondFactors().recoveryCodesLeft(userID: try context.principal().user.id)
    }

    package func enrolFactor(context: GraphQLContext, arguments: EnrolArguments) async throws -> FactorEnrolmentPayload {
        let enrolment = try await context.services.secondFactors().enrol(try context.principal(), friendlyName: arguments.friendlyName ?? "")
        return FactorEnrolmentPayload(factor: enrolment.factor.summary, secret: enrolment.secret, uri: enrolment.uri, qrCode: enrolment.qrCode)
    }

    package func verifyFactor(context: GraphQLContext, arguments: FactorCodeArguments) async throws -> AuthPayload {
        let factors = try context.services.secondFactors(), principal = try context.principal()
        let challenge = try await factors.challenge(factorID: arguments.factorId, for: principal)
        return try await stepUp(factors.grant(challengeID: challenge.id, answer: .code(arguments.code), for: principal), context: context)
    }

    package func challengeFactor(context: GraphQLContext, arguments: FactorIDArguments) async throws -> FactorChallengePayload {
        let factors = try context.services.secondFactors(), principal = try context.principal()
        let challenge = if let id = arguments.factorId {
            try await factors.challenge(factorID: id, for: principal)
        } else {
            try await factors.recoveryChallenge(for: principal)
        }
        return FactorChallengePayload(challengeId: challenge.id, expiresIn: Int(challenge.expiresAt.timeIntervalSince(challenge.createdAt)))
    }

    package func verifySecondFactor(context: GraphQLContext, arguments: SecondFactorArguments) async throws -> AuthPayload {
        let factors = try context.services.secondFactors(), principal = try context.principal()
        let answer: SecondFactorProof.Answer = switch (arguments.code, arguments.recoveryCode) {
        case (let code?, nil): .code(code)
        case (nil, let code?): .recoveryCode(code)
        default: throw GatehouseError.invalidRequest("Give either code or recoveryCode")
        }
        return try await stepUp(factors.grant(challengeID: arguments.challengeId, answer: answer, for: principal), context: context)
    }

    package func removeFactor(context: GraphQLContext, arguments: FactorIDArguments) async throws -> Bool {
        guard let id = arguments.factorId else { throw GatehouseError.invalidRequest("factorId is required") }
        guard try await context.services.secondFactors().remove(factorID: id, for: try context.principal()) else { throw GatehouseError.notFound }
        return true
    }

    package func regenerateRecoveryCodes(context: GraphQLContext, arguments: NoArguments) async throws -> [String] {
        try await context.services.secondFactors().regenerateRecoveryCodes(for: try context.principal())
    }

    private func stepUp(_ grant: Grant, context: GraphQLContext) async throws -> AuthPayload {
        let signIn = try await context.services.pipeline.stepUp(grant, of: try context.principal(), from: context.request.client)
        context.deviceToken.withLockedValue { $0 = signIn.deviceToken }
        return AuthPayload(signIn.grant)
    }
}
