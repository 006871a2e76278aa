import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import Hummingbird
import LoginCore

extension WebController {
    /// The passkey calls the pages' script makes (form-encoded, CSRF-checked like every form).
    func addPasskeyRoutes(to pages: RouterGroup<GatehouseRequestContext>) {
        guard services.passkeys != nil else { return }
        pages.post("/login/passkey/options") { _, context in
            try JSONBody.response(try await services.passkeyService().passkeyAuthenticationOptions(from: context.client))
        }
        pages.post("/login/passkey", use: signInWithPasskey)
        pages.post("/home/passkeys/options") { _, context in
            try JSONBody.response(try await services.passkeyService().passkeyRegistrationOptions(for: try requireWebPrincipal(context)))
        }
        pages.post("/home/passkeys", use: addPasskey)
        pages.post("/home/passkeys/decline", use: declineOffer)
        pages.post("/home/passkeys/{id}/rename", use: renamePasskey)
        pages.post("/home/passkeys/{id}/delete", use: removePasskey)
    }

    /// `POST /login/passkey`: the assertion through the one pipeline, then a web session.
    @Sendable func signInWithPasskey(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let fields = try await WebForm.decode(WebForm.Passkey.self, from: request, context: context)
        let machine = PasskeySignIn(configuration: configuration)
        var state = PasskeySignInState()
        _ = machine.send(.launched(enrolled: true), to: &state)
        do {
            let json = try JSONDecoder().decode(PasskeyAssertionJSON.self, from: Data((fields.credential ?? "").utf8))
            let previous = request.cookies[WebCookies.session]?.value
            let signIn = try await services.pipeline.signInToWeb(try .passkey(json), from: context.client, replacing: previous)
            var response = try signedIn(signIn, request: request)
            PasskeyCookies.set(PasskeyCookies.enrolled, on: &response)
            return response
        } catch is DecodingError {
            throw GatehouseError.invalidRequest("credential must be PublicKeyCredential.toJSON()")
        } catch let error as GatehouseError {
            let failure = Self.failure(for: error)
            _ = machine.send(.signInResponse(.failure(failure)), to: &state)
            let shown = error.presentation
            var response = try JSONBody.response(
                WebPasskeyAnswer(banner: state.banner, bannerIsError: state.bannerIsError, unknown: failure == .passkeyUnknown, retryAfter: shown.retryAfter),
                status: shown.httpStatus
            )
            if failure == .passkeyUnknown { response.setCookie(WebCookies.expired(PasskeyCookies.enrolled)) }
            if let retry = shown.retryAfter { response.headers[.retryAfter] = String(retry) }
            return response
        }
    }

    /// `POST /home/passkeys`: the offer's accept, or Home's "Add a passkey".
    @Sendable func addPasskey(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let principal = try requireWebPrincipal(context)
        let fields = try await WebForm.decode(WebForm.Passkey.self, from: request, context: context)
        let offer = BiometricOffer(configuration: configuration)
        do {
            let json = try JSONDecoder().decode(PasskeyRegistrationJSON.self, from: Data((fields.credential ?? "").utf8))
            let name = fields.name.flatMap { $0.isEmpty ? nil : $0 }
            _ = try await services.passkeyService().registerPasskey(json, name: name, for: principal)
            var response = try JSONBody.response(WebPasskeyAnswer(banner: offer.configuration.messages.text(.biometricEnabled), bannerIsError: false, unknown: false, retryAfter: nil))
            PasskeyCookies.set(PasskeyCookies.enrolled, on: &response)
            response.setCookie(WebCookies.expired(PasskeyCookies.afterPassword))
            return response
        } catch is DecodingError {
            throw GatehouseError.invalidRequest("credential must be PublicKeyCredential.toJSON()")
        } catch let error as GatehouseError {
            let shown = error.presentation
            let banner = Self.failure(for: error).message(in: configuration.messages)
            return try JSONBody.response(WebPasskeyAnswer(banner: banner, bannerIsError: true, unknown: false, retryAfter: nil), status: shown.httpStatus)
        }
    }

    /// `POST /home/passkeys/decline`: "Not now", remembered for this device.
    @Sendable func declineOffer(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        var response = try request.answer(json: ["status": "declined"]) { Response.redirect(to: "/home", type: .normal) }
        PasskeyCookies.set(PasskeyCookies.declined, on: &response)
        response.setCookie(WebCookies.expired(PasskeyCookies.afterPassword))
        return response
    }

    @Sendable func renamePasskey(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let principal = try requireWebPrincipal(context)
        let fields = try await WebForm.decode(WebForm.Passkey.self, from: request, context: context)
        try await services.passkeyService().renamePasskey(try context.parameters.require("id"), to: fields.name ?? "", for: principal)
        return Response.redirect(to: "/home", type: .normal)
    }

    @Sendable func removePasskey(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let principal = try requireWebPrincipal(context)
        do {
            try await services.passkeyService().removePasskey(try context.parameters.require("id"), for: principal)
        } catch GatehouseError.lastSignInMethod {
            return Response.redirect(to: "/home?passkey=last", type: .normal)
        }
        var response = Response.redirect(to: "/home?passkey=removed", type: .normal)
        if try await services.passkeyService().passkeys(of: principal.user.id).isEmpty { response.setCookie(WebCookies.expired(PasskeyCookies.enrolled)) }
        return response
    }

    private func requireWebPrincipal(_ context: GatehouseRequestContext) throws -> Principal {
        guard let principal = context.identity else { throw GatehouseError.unauthenticated }
        return principal
    }
}

/// The script's answer to a passkey call: the copy to show, and whether the device should
/// forget its passkey (the server does not know it).
struct WebPasskeyAnswer: Encodable {
    let banner: String?
    let bannerIsError: Bool
    let unknown: Bool
    let retryAfter: Int?
}
