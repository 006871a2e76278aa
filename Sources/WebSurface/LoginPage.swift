import Foundation
import LoginCore

/// What the login template shows, built from LoginCore's state and configuration.
///
/// The button is rendered enabled: without JavaScript the server validates on submit; the
/// script applies the configured submit policy as soon as it runs.
/// The same values go to the page's script as JSON (``configJSON``): the rules and the
/// messages, with placeholders already filled in, so the browser never holds a second copy.
package struct LoginPage {
    package let configuration: LoginConfiguration
    package let state: LoginState
    package let csrf: String
    /// ``configJSON(_:)`` of the configuration, built once by the controller.
    package let configJSON: String
    /// Seconds until a throttled user may try again; the script counts them down.
    package let retryAfter: Int?

    package var context: [String: Any] {
        let m = configuration.messages
        let subtitle = m.text(.subtitle)
        return [
            "appName": configuration.appName, "title": m.text(.title), "subtitle": subtitle, "hasSubtitle": !subtitle.isEmpty,
            "emailLabel": m.text(.emailLabel), "emailPlaceholder": m.text(.emailPlaceholder),
            "passwordLabel": m.text(.passwordLabel), "passwordPlaceholder": m.text(.passwordPlaceholder),
            "submit": m.text(.submit), "showPassword": m.text(.showPassword),
            "clearEmail": m.text(.clearEmail), "clearPassword": m.text(.clearPassword),
            "email": state.email, "emailError": state.emailError ?? "", "hasEmailError": state.emailError != nil,
            "passwordError": state.passwordError ?? "", "hasPasswordError": state.passwordError != nil,
            "banner": state.banner ?? "", "hasBanner": state.banner != nil, "csrf": csrf,
            "configJSON": configJSON, "retryAfter": retryAfter.map(String.init) ?? "",
        ]
    }

    /// LoginCore's rules and messages for the script, safe to embed in a `<script>` element.
    package static func configJSON(_ configuration: LoginConfiguration) -> String {
        let rules = configuration.rules
        let m = configuration.messages
        var messages: [String: String] = [:]
        // Keys without values keep their placeholders: the page fills in `{time}` as it counts down.
        for key in MessageKey.allCases { messages[key.rawValue] = m.text(key) }
        messages[MessageKey.passwordTooShort.rawValue] = m.text(.passwordTooShort, ["min": String(rules.passwordMinimumLength)])
        messages[MessageKey.passwordTooLong.rawValue] = m.text(.passwordTooLong, ["max": String(rules.passwordMaximumLength)])
        messages[MessageKey.retryReady.rawValue] = m.retryReadyText(button: .submit)
        let object = ScriptConfiguration(
            submitPolicy: configuration.submitPolicy.rawValue,
            rules: .init(
                emailPattern: rules.emailPattern, passwordMinimumLength: rules.passwordMinimumLength,
                passwordMaximumLength: rules.passwordMaximumLength
            ),
            messages: messages
        )
        // JSONEncoder, not JSONSerialization: sorting `[String: Any]`'s keys as `AnyHashable` made
        // this a twenty-fifth of the test suites' CPU time, which build a page per server.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(object)) ?? Data("{}".utf8)
        // "<" never appears raw, so no text can close the script element early.
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c")
    }

    /// The theme's colours as CSS custom properties, light first, then dark for
    /// `prefers-color-scheme: dark`. Colours are checked `#rgb`/`#rrggbb` values, so nothing else
    /// can reach the stylesheet.
    package static func themeCSS(_ theme: LoginTheme) -> String {
        func block(_ colours: [LoginTheme.Token: String]) -> String {
            LoginTheme.Token.allCases.compactMap { token in colours[token].map { "--\(token.cssName): \($0);" } }.joined(separator: " ")
        }
        var css = "/* The app's colours (its app file's login.theme). */\n"
        if !theme.light.isEmpty { css += ":root { \(block(theme.light)) }\n" }
        if !theme.dark.isEmpty { css += "@media (prefers-color-scheme: dark) { :root { \(block(theme.dark)) } }\n" }
        return css
    }
}

extension LoginTheme.Token {
    /// The custom property's name: `onPrimary` → `on-primary`.
    package var cssName: String {
        rawValue.reduce(into: "") { name, character in
            name += character.isUppercase ? "-" + character.lowercased() : String(character)
        }
    }
}

/// What the login page's script reads: the submit policy, the rules and the messages.
private struct ScriptConfiguration: Encodable {
    struct Rules: Encodable {
        let emailPattern: String
        let passwordMinimumLength: Int
        let passwordMaximumLength: Int
    }

    let submitPolicy: String
    let rules: Rules
    let messages: [String: String]
}
