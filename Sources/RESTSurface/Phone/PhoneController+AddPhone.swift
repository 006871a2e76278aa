import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import Hummingbird

/// Adding (or changing) the signed-in account's phone (issue 39): a code to the number, then
/// the code; a guest keeps its account this way.
extension PhoneController {
    func addPhoneRoutes(to router: Router<GatehouseRequestContext>) {
        router.group()
            .add(middleware: BearerAuthenticator(pipeline: pipeline))
            .post("/api/auth/phone/add", use: sendAddPhone)
            .post("/api/auth/phone/add/verify", use: verifyAddPhone)
    }

    /// `POST /api/auth/phone/add {"phone", "country"?}` (Bearer): seed 004's code answer.
    @Sendable package func sendAddPhone(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let body = try await JSONBody.decode(PhoneCodeRequest.self, from: request, context: context)
        return try JSONBody.response(try await phone.sendAddPhoneCode(principal, phone: body.phone, country: body.country, from: context.client))
    }

    /// `POST /api/auth/phone/add/verify {"verification_id", "code"}` (Bearer): the account, with its phone.
    @Sendable package func verifyAddPhone(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let body = try await JSONBody.decode(PhoneVerifyRequest.self, from: request, context: context)
        let user = try await phone.verifyAddPhoneCode(body.verificationID, code: body.code, account: principal.user.id, from: context.client)
        return try JSONBody.response(user.profile)
    }
}
