import Foundation
import GatehouseModel
import LoginCore

/// What the phone template shows (sign-in or registration), built from LoginCore's phone state.
///
/// The countries, copy and timings also go to the page's script as JSON, so the script formats
/// with the server's data and holds no copy of its own.
package struct PhonePage {
    package let configuration: LoginConfiguration
    package let state: PhoneSignInState
    package let csrf: String
    package let retryAfter: Int?
    /// Whether the app offers registration ("Create Account").
    package let registration: Bool
    /// ``configJSON(_:countries:)``, built once by the controller.
    package let configJSON: String

    package var context: [String: Any] {
        let m = configuration.messages
        let register = state.mode == .register
        let country = state.country
        let subtitle = m.text(register ? .registerSubtitle : .subtitle)
        return [
            "appName": configuration.appName, "register": register,
            "title": m.text(register ? .registerTitle : .title), "subtitle": subtitle, "hasSubtitle": !subtitle.isEmpty,
            "action": register ? "/register" : "/login/phone", "csrf": csrf,
            "nameLabel": m.text(.nameLabel), "name": state.name, "nameError": state.nameError ?? "", "hasNameError": state.nameError != nil,
            "phoneLabel": m.text(.phoneLabel), "number": state.number,
            "phonePlaceholder": m.text(.phonePlaceholder, ["example": country?.example ?? ""]),
            "countryLabel": Self.countryLabel(country, m),
            "countries": state.countries.map { ["code": $0.code, "flag": $0.flag, "dialCode": $0.dialCode, "name": $0.name, "selected": $0 == country] },
            "numberError": state.numberError ?? "", "hasNumberError": state.numberError != nil, "complete": state.isNumberComplete,
            "sendCode": m.text(.sendCode), "banner": state.banner ?? "", "hasBanner": state.banner != nil,
            "retryAfter": retryAfter.map(String.init) ?? "", "suggestsRegistration": state.suggestsRegistration,
            "waitsForResend": state.waitsForResend ? "true" : "false",
            "retryCountdown": state.retryCountdown ?? "", "hasRetryCountdown": state.retryCountdown != nil,
            "switchPrompt": m.text(register ? .haveAccountPrompt : .noAccountPrompt),
            "switchLink": m.text(register ? .signInLink : .createAccount), "switchHref": register ? "/login" : "/register",
            "showSwitch": register || registration, "configJSON": configJSON,
        ]
    }

    /// "Country code, India +91" (seed 004's VoiceOver label).
    package static func countryLabel(_ country: PhoneCountry?, _ messages: MessageCatalogue) -> String {
        messages.text(.countryCodeLabel, ["country": country?.name ?? "", "dialCode": country?.dialCode ?? ""])
    }

    /// The messages and countries for the script, safe inside a `<script>` element.
    package static func configJSON(_ configuration: LoginConfiguration, countries: [PhoneCountry]) -> String {
        var messages: [String: String] = [:]
        for key in MessageKey.allCases { messages[key.rawValue] = configuration.messages[key] }
        let encodable = ScriptConfig(messages: messages, countries: countries)
        let data = (try? JSONEncoder().encode(encodable)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c")
    }

    package struct ScriptConfig: Encodable {
        package let messages: [String: String]
        package let countries: [PhoneCountry]
    }
}
