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
        // Per device (seed 003): this browser's own passkey, not one the account has elsewhere.
        let enrolledHere = PasskeyCookies.isSet(PasskeyCookies.enrolled, in: request) && !records.isEmpty
        let usableHere = passkeysWork(on: request)
        if services.pipeline.settings.passkeys.offer, usableHere {
            _ = offer.send(.appeared(
                afterPassword: PasskeyCookies.isSet(PasskeyCookies.afterPassword, in: request), enrolledHere: enrolledHere,
                declinedHere: PasskeyCookies.isSet(PasskeyCookies.declined, in: request)
            ), to: &offerState)
        }
        var context: [String: Any] = [
            "offersPasskeys": true, "passkeys": passkeys, "hasPasskeys": !passkeys.isEmpty, "passkeysTitle": m.text(.passkeysTitle),
            "renameLabel": m.text(.passkeyRename), "removeLabel": m.text(.passkeyRemove), "passkeyNameLabel": m.text(.passkeyNameLabel),
            "addPasskeyLabel": m.text(.biometricOfferAccept), "offerChecking": offerState.phase == .checking,
            "offerTitle": offer.title, "offerBody": offer.body, "offerAccept": offer.acceptLabel, "offerDecline": offer.declineLabel,
            "passkeyCancelled": m.text(.passkeyCancelled), "passkeyFailed": m.text(.passkeyFailed),
            "enrolledHere": enrolledHere, "canAddHere": usableHere && !enrolledHere, "enabledHere": m.text(.biometricEnabled),
        ]
        if !usableHere { context["passkeysElsewhere"] = m.text(.passkeysElsewhere, ["url": services.pipeline.settings.publicURL]) }
        switch request.uri.queryParameters["passkey"] {
        case "added": context["passkeyNotice"] = m.text(.biometricEnabled)
        case "removed": context["passkeyNotice"] = m.text(.passkeyRemoved)
        case "last": context["passkeyNotice"] = m.text(.lastSignInMethod)
        default: break
        }
        return context
    }

    /// Whether a passkey can be made or used on the host this page was opened on: WebAuthn ties
    /// a passkey to the public URL's host (the relying party id), and never to an IP address.
    /// Opened as `http://127.0.0.1:…` while the public URL says `localhost`, Home says where
    /// passkeys work instead of offering what would fail.
    func passkeysWork(on request: Request) -> Bool {
        guard let party = URL(string: services.pipeline.settings.publicURL)?.host?.lowercased() else { return false }
        // A request that names no host (an in-process test) cannot be judged: nothing is hidden.
        guard let authority = request.head.authority, !authority.isEmpty else { return true }
        let host = (authority.hasPrefix("[") ? String(authority.prefix { $0 != "]" }) + "]" : String(authority.split(separator: ":").first ?? ""))
            .lowercased()
        let isAddress = host.hasPrefix("[") || host.split(separator: ".").allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
        return !isAddress && (host == party || host.hasSuffix("." + party))
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
