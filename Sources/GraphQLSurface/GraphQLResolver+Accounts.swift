import GatehouseCore
import Graphiti
import GatehouseModel

/// Sign-up, email verification and password reset for GraphQL apps: the same feature services
/// calls as `POST /api/auth/signup`, `email/…` and `password/…`.
///
/// The mutations that mail answer `true` whether or not the address has an account; the ones
/// that prove a mail's secret sign in and answer like `login`.
extension GraphQLResolver {
    /// `signUp(data: { email, password, name })`.
    package struct SignUpArguments: Codable { let data: SignUpInput }
    package struct SignUpInput: Codable {
        package let email: String
        package let password: String
        package let name: String
    }

    /// `resendVerificationEmail(email:)` and `requestPasswordReset(email:)`.
    package struct EmailArguments: Codable { let email: String }

    /// `verifyEmail(data: { token } | { email, code })`.
    package struct VerifyEmailArguments: Codable { let data: MailProofInput }
    /// `resetPassword(data: { token } | { email, code }, password)`.
    package struct ResetPasswordArguments: Codable {
        let data: MailProofInput
        let password: String
    }

    package struct MailProofInput: Codable {
        package let token: String?
        package let email: String?
        package let code: String?

        func proof() throws -> MailProof {
            try MailProof(token: token, email: email, code: code)
        }
    }

    package func signUp(context: GraphQLContext, arguments: SignUpArguments) async throws -> Bool {
        let data = arguments.data
        let receipt = try await context.services.accounts.signUp(email: data.email, password: data.password, name: data.name, from: context.request.client)
        context.signUpBinding.withLockedValue { $0 = receipt.binding }
        return true
    }

    package func resendVerificationEmail(context: GraphQLContext, arguments: EmailArguments) async throws -> Bool {
        _ = try await context.services.accounts.resendVerification(email: arguments.email, from: context.request.client)
        return true
    }

    package func requestPasswordReset(context: GraphQLContext, arguments: EmailArguments) async throws -> Bool {
        _ = try await context.services.accounts.requestPasswordReset(email: arguments.email, from: context.request.client)
        return true
    }

    /// `sendEmailCode(email:, createUser:)`.
    package struct EmailCodeArguments: Codable {
        let email: String
        let createUser: Bool
    }

    package func sendEmailCode(context: GraphQLContext, arguments: EmailCodeArguments) async throws -> Bool {
        _ = try await context.services.accounts.sendSignInCode(
            email: arguments.email, createUser: arguments.createUser, from: context.request.client
        )
        return true
    }

    package func verifyEmailCode(context: GraphQLContext, arguments: VerifyEmailArguments) async throws -> AuthPayload {
        try await signIn(.emailCode(try arguments.data.proof()), context: context)
    }

    /// `signInAnonymously`: a guest account, where the app lists `anonymous`.
    package func signInAnonymously(context: GraphQLContext, arguments: NoArguments) async throws -> AuthPayload {
        try await signIn(.anonymous, context: context)
    }

    /// `deleteAccount(password:)`.
    package struct DeleteAccountArguments: Codable { let password: String? }

    package func deleteAccount(context: GraphQLContext, arguments: DeleteAccountArguments) async throws -> Bool {
        try await context.services.deletion.deleteAccount(try context.principal(), password: arguments.password, from: context.request.client)
        return true
    }

    package func verifyEmail(context: GraphQLContext, arguments: VerifyEmailArguments) async throws -> AuthPayload {
        try await signIn(.emailLink(try arguments.data.proof()), context: context)
    }

    package func resetPassword(context: GraphQLContext, arguments: ResetPasswordArguments) async throws -> AuthPayload {
        try await signIn(.passwordReset(try arguments.data.proof(), newPassword: arguments.password), context: context)
    }

    private func signIn(_ grant: Grant, context: GraphQLContext) async throws -> AuthPayload {
        let signIn = try await context.services.pipeline.signIn(grant, from: context.request.client)
        context.deviceToken.withLockedValue { $0 = signIn.deviceToken }
        return AuthPayload(signIn.grant)
    }
}
