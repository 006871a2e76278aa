import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import Hummingbird

/// Seed 004's phone routes: the country list, sending and resending codes, registering, verifying.
///
/// Served only when phone sign-in is enabled. A right code answers exactly as
/// `POST /api/auth/login` does, because it goes through the same ``SignInPipeline/signIn(_:from:)``.
package struct PhoneController {
    package let pipeline: SignInPipeline
    package let phone: PhoneCodes

    package init(pipeline: SignInPipeline, phone: PhoneCodes) {
        self.pipeline = pipeline
        self.phone = phone
    }

    package func addRoutes(to router: Router<GatehouseRequestContext>) {
        router.get("/api/auth/phone/countries", use: countries)
        router.post("/api/auth/phone/otp", use: send)
        router.post("/api/auth/phone/otp/resend", use: resend)
        router.post("/api/auth/phone/register", use: register)
        router.post("/api/auth/phone/verify", use: verify)
        addPhoneRoutes(to: router)
    }

    @Sendable package func countries(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let language = request.uri.queryParameters["lang"].map(String.init) ?? "en"
        guard (1...16).contains(language.count), language.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-" || $0 == "_") }) else {
            throw GatehouseError.invalidRequest("lang must be a language tag such as en or hi-IN")
        }
        let countries = phone.countries(language: language)
        var response = try JSONBody.response(PhoneCountries(countries: countries, defaultCountry: phone.policy.allowedRegions.first))
        response.headers[.cacheControl] = "public, max-age=3600"
        return response
    }

    @Sendable package func send(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(PhoneCodeRequest.self, from: request, context: context)
        return try JSONBody.response(try await phone.sendPhoneCode(body.phone, country: body.country, purpose: .signIn, from: context.client))
    }

    @Sendable package func resend(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(PhoneResendRequest.self, from: request, context: context)
        return try JSONBody.response(try await phone.resendPhoneCode(verificationID: body.verificationID, from: context.client))
    }

    @Sendable package func register(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(PhoneRegistrationRequest.self, from: request, context: context)
        let sent = try await phone.sendPhoneCode(body.phone, country: body.country, purpose: .register, name: body.name, from: context.client)
        return try JSONBody.response(sent)
    }

    @Sendable package func verify(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(PhoneVerifyRequest.self, from: request, context: context)
        let signIn = try await pipeline.signIn(.phoneCode(verificationID: body.verificationID, code: body.code), from: context.client)
        return try TokenGrantResponse.make(signIn.grant, device: signIn.deviceToken)
    }
}
