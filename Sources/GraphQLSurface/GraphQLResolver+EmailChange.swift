import GatehouseCore
import GatehouseModel

extension GraphQLResolver {
    /// Where an email change stands: `status` is one of ``EmailChangeStatus``'s raw values.
    package struct EmailChangePayload: Codable {
        let status: String
        let email: String

        init(_ status: EmailChangeStatus, email: String) {
            self.status = status.rawValue
            self.email = email
        }
    }

    /// `changeEmail(email:password:)`.
    package struct ChangeEmailArguments: Codable {
        let email: String
        let password: String?
    }

    /// Mails both addresses of a change of the signed-in account's email; alike for a taken address.
    package func changeEmail(context: GraphQLContext, arguments: ChangeEmailArguments) async throws -> EmailChangePayload {
        let address = try await context.services.emailChanges().request(
            try context.principal(), newEmail: arguments.email, password: arguments.password, from: context.request.client
        )
        return EmailChangePayload(.pending, email: address)
    }

    /// Confirms one address of a pending change with its mail's code or link token.
    package func confirmEmailChange(context: GraphQLContext, arguments: VerifyEmailArguments) async throws -> EmailChangePayload {
        switch try await context.services.emailChanges().confirm(try arguments.data.proof(), from: context.request.client) {
        case .awaitingOther(let email): EmailChangePayload(.awaitingOther, email: email)
        case .done(_, let email): EmailChangePayload(.done, email: email)
        }
    }
}
