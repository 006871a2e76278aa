import Foundation
import GatehouseModel
import LoginCore

/// What the code-entry template shows, built from LoginCore's code-entry state.
package struct CodePage {
    package let configuration: LoginConfiguration
    package let state: CodeEntryState
    package let csrf: String
    /// Where "Change number" goes: the screen the code was requested from.
    package let changeHref: String
    /// The phone screens' script configuration, built once by the controller.
    package let configJSON: String

    package var context: [String: Any] {
        let m = configuration.messages
        let sent = state.sent
        let attempts = state.attemptsLeft.map { AuthFailure.codeIncorrect(attemptsLeft: $0).message(in: m) }
        return [
            "appName": configuration.appName, "title": m.text(.codeTitle),
            "subtitle": m.text(.codeSubtitle, ["length": String(sent.codeLength), "phone": sent.phoneMasked]),
            "csrf": csrf, "codeLabel": m.text(.codeLabel), "codeLength": sent.codeLength,
            "codeError": state.codeError ?? attempts ?? "", "hasCodeError": state.codeError != nil || attempts != nil,
            "expired": state.isExpired, "verify": m.text(.verifyCode), "banner": state.banner ?? "", "hasBanner": state.banner != nil,
            "resend": m.text(.resendCode), "changeNumber": m.text(.changeNumber), "changeHref": changeHref,
            "expiresIn": sent.expiresIn, "resendAfter": sent.resendAfter,
            "resendCountdown": state.resendCountdown ?? "", "hasResendCountdown": state.resendCountdown != nil,
            "configJSON": configJSON,
        ]
    }
}
