import Foundation
import GatehouseCore
import GatehouseHTTP
import Hummingbird
import LoginCore

extension WebController {
    /// Home's passkey list and seed 003's offer, for the template.
    func homePasskeyContext(_ request: Request, principal: Principal) async throws -> [String: Any] {
        guard services.passkeys != nil else { return [:] }
        let records = try await services.passkeyService().passkeys(of: principal.user.id)
        let m = configuration.messages
        let dates = Date.FormatStyle(date: .abbreviated, time: .omitted).locale(Locale(identifier: "en_GB"))
        let passkeys: [[String: Any]] = records.map { record in
            [
                "id": record.id, "name": record.name, "created": m.text(.passkeyCreated, ["date": record.createdAt.formatted(dates)]),
                "lastUsed": record.lastUsedAt.map { m.text(.passkeyLastUsed, ["date": $0.formatted(dates)]) } ?? m.text(.passkeyNeverUsed),
                "kind": record.backupEligible ? m.text(.passkeySynced) : m.text(.passkeyThisDevice),
            ]
        }
        var offerState = BiometricOfferState()
        let offer = BiometricOffer(configuration: configuration)
        if services.pipeline.settings.passkeys.offer {
            _ = offer.send(.appeared(
                afterPassword: PasskeyCookies.isSet(PasskeyCookies.afterPassword, in: request), hasPasskey: !records.isEmpty,
                declinedHere: PasskeyCookies.isSet(PasskeyCookies.declined, in: request)
            ), to: &offerState)
        }
        var context: [String: Any] = [
            "offersPasskeys": true, "passkeys": passkeys, "hasPasskeys": !passkeys.isEmpty, "passkeysTitle": m.text(.passkeysTitle),
            "renameLabel": m.text(.passkeyRename), "removeLabel": m.text(.passkeyRemove), "passkeyNameLabel": m.text(.passkeyNameLabel),
            "addPasskeyLabel": m.text(.biometricOfferAccept), "offerChecking": offerState.phase == .checking,
            "offerTitle": offer.title, "offerBody": offer.body, "offerAccept": offer.acceptLabel, "offerDecline": offer.declineLabel,
            "passkeyCancelled": m.text(.passkeyCancelled), "passkeyFailed": m.text(.passkeyFailed),
        ]
        switch request.uri.queryParameters["passkey"] {
        case "added": context["passkeyNotice"] = m.text(.biometricEnabled)
        case "removed": context["passkeyNotice"] = m.text(.passkeyRemoved)
        case "last": context["passkeyNotice"] = m.text(.lastSignInMethod)
        default: break
        }
        return context
    }

    /// The login page's biometric prompt (seed 003's next launch), when this device accepted the offer.
    func loginPasskeyContext(_ request: Request) -> [String: Any] {
        guard services.passkeys != nil else { return [:] }
        let machine = PasskeySignIn(configuration: configuration)
        var state = PasskeySignInState()
        if services.pipeline.settings.passkeys.offer {
            let enrolled = PasskeyCookies.isSet(PasskeyCookies.enrolled, in: request)
            _ = machine.send(.launched(enrolled: enrolled, signedOut: request.cookies[WebCookies.signedOut] != nil), to: &state)
        }
        let m = configuration.messages
        return [
            "passkeys": true, "biometricPrompt": state.phase == .prompting, "promptTitle": machine.title, "promptBody": machine.body,
            "promptRetry": machine.retryLabel, "usePassword": machine.usePasswordLabel, "passkeyCancelled": m.text(.passkeyCancelled),
            "passkeyFailed": m.text(.passkeyFailed),
        ]
    }
}
