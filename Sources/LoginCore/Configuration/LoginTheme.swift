/// An app's colours for light and dark mode (seed 004: teal `#0D7377`, `#1E1E1E` in the dark).
///
/// Each mode maps a token to a `#rgb` or `#rrggbb` colour; a token left out keeps Gatehouse's
/// default. The web page serves them as CSS custom properties (`--primary`, …); a SwiftUI
/// screen would read the same values.
public struct LoginTheme: Equatable, Sendable, Codable {
    /// The colours a theme may set.
    public enum Token: String, CaseIterable, Codable, Sendable, CodingKeyRepresentable {
        case background, surface, text, muted, border, primary, onPrimary, focus, error, errorBackground, link, success
    }

    public var light: [Token: String]
    public var dark: [Token: String]

    public init(light: [Token: String] = [:], dark: [Token: String] = [:]) {
        self.light = light
        self.dark = dark
    }

    struct InvalidColour: Error, CustomStringConvertible {
        let value: String
        var description: String { "'\(value)' is not a colour; write #rgb or #rrggbb" }
    }

    public init(from decoder: any Decoder) throws {
        enum Keys: String, CodingKey, CaseIterable { case light, dark }
        try StrictKeys.check(decoder, allowed: Keys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: Keys.self)
        light = try container.decodeIfPresent([Token: String].self, forKey: .light) ?? [:]
        dark = try container.decodeIfPresent([Token: String].self, forKey: .dark) ?? [:]
        for value in Array(light.values) + Array(dark.values) where !Self.isColour(value) {
            throw InvalidColour(value: value)
        }
    }

    static func isColour(_ value: String) -> Bool {
        let hex = value.dropFirst()
        return value.first == "#" && (hex.count == 3 || hex.count == 6) && hex.allSatisfy(\.isHexDigit)
    }
}
