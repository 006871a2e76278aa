import GatehouseCore
import Graphiti
import GatehouseModel

/// Seed 004's phone sign-in for GraphQL apps: send a code, resend it, verify it.
///
/// The same feature services calls as `POST /api/auth/phone/…`, so the limits, the account check
/// and the sign-in pipeline are shared; `verifyPhoneCode` answers like `login`.
extension GraphQLResolver {
    /// `sendPhoneCode(data: { phone, country })`.
    package struct SendPhoneCodeArguments: Codable { let data: SendPhoneCodeInput }
    package struct SendPhoneCodeInput: Codable {
        package let phone: String
        package let country: String?
    }

    /// `resendPhoneCode(verificationId:)`.
    package struct ResendPhoneCodeArguments: Codable { let verificationId: String }

    /// `verifyPhoneCode(data: { verificationId, code })`.
    package struct VerifyPhoneCodeArguments: Codable { let data: VerifyPhoneCodeInput }
    package struct VerifyPhoneCodeInput: Codable {
        package let verificationId: String
        package let code: String
    }

    package func sendPhoneCode(context: GraphQLContext, arguments: SendPhoneCodeArguments) async throws -> PhoneCodeSent {
        try await context.services.phoneCodes().sendPhoneCode(
            arguments.data.phone, country: arguments.data.country, purpose: .signIn, from: context.request.client
        )
    }

    package func resendPhoneCode(context: GraphQLContext, arguments: ResendPhoneCodeArguments) async throws -> PhoneCodeSent {
        try await context.services.phoneCodes().resendPhoneCode(verificationID: arguments.verificationId, from: context.request.client)
    }

    /// `addPhone(data: { phone, country })`: a code that adds (or changes) the signed-in account's phone.
    package func addPhone(context: GraphQLContext, arguments: SendPhoneCodeArguments) async throws -> PhoneCodeSent {
        try await context.services.phoneCodes().sendAddPhoneCode(
            try context.principal(), phone: arguments.data.phone, country: arguments.data.country, from: context.request.client
        )
    }

    /// `verifyAddPhone(data: { verificationId, code })`: the account, with its phone; never a sign-in.
    package func verifyAddPhone(context: GraphQLContext, arguments: VerifyPhoneCodeArguments) async throws -> SignedInUser {
        let principal = try context.principal()
        return try await context.services.phoneCodes().verifyAddPhoneCode(
            arguments.data.verificationId, code: arguments.data.code, account: principal.user.id, from: context.request.client
        ).profile
    }

    package func verifyPhoneCode(context: GraphQLContext, arguments: VerifyPhoneCodeArguments) async throws -> AuthPayload {
        let grant = Grant.phoneCode(verificationID: arguments.data.verificationId, code: arguments.data.code)
        let signIn = try await context.services.pipeline.signIn(grant, from: context.request.client)
        context.deviceToken.withLockedValue { $0 = signIn.deviceToken }
        return AuthPayload(signIn.grant)
    }
}
