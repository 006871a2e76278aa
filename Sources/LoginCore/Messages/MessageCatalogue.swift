import Foundation

/// Every string of the login screen, with per-app overrides on top of seed 000's copy.
///
/// A catalogue decodes from a JSON object whose keys are ``MessageKey`` raw values. An unknown
/// key is an error rather than silently ignored, so a typo in an example configuration fails
/// loudly instead of showing the default copy.
public struct MessageCatalogue: Equatable, Sendable {
    /// The texts that differ from the defaults.
    public var overrides: [MessageKey: String]

    /// Creates a catalogue.
    /// - Parameter overrides: texts that replace the defaults of their keys.
    public init(_ overrides: [MessageKey: String] = [:]) {
        self.overrides = overrides
    }

    /// The raw template for a key, before placeholders are filled in.
    public subscript(key: MessageKey) -> String {
        overrides[key] ?? key.defaultText
    }

    /// The text for a key with its placeholders filled in.
    ///
    /// - Parameters:
    ///   - key: which message.
    ///   - values: placeholder values, for example `["min": "8"]` for `{min}`.
    public func text(_ key: MessageKey, _ values: [String: String] = [:]) -> String {
        values.reduce(self[key]) { text, pair in
            text.replacingOccurrences(of: "{\(pair.key)}", with: pair.value)
        }
    }
}

extension MessageCatalogue {
    /// The rate-limit message for a wait: `{seconds}` and `{minutes}` (rounded up) filled in.
    public func rateLimitedText(seconds: Int?) -> String {
        guard let seconds else { return text(.rateLimited, ["seconds": "a few", "minutes": "a few"]) }
        return text(.rateLimited, ["seconds": String(seconds), "minutes": String((seconds + 59) / 60)])
    }

    /// The countdown text for the seconds left, as `m:ss`.
    public func retryCountdownText(seconds: Int) -> String {
        text(.retryCountdown, ["time": Self.clock(seconds)])
    }

    /// Seconds as `m:ss` (`90` → `1:30`).
    static func clock(_ seconds: Int) -> String {
        "\(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)"
    }
}

extension MessageCatalogue: Codable {
    struct UnknownKey: Error, CustomStringConvertible {
        let key: String
        var description: String {
            "unknown message key '\(key)'; known keys: \(MessageKey.allCases.map(\.rawValue).joined(separator: ", "))"
        }
    }

    public init(from decoder: any Decoder) throws {
        let raw = try [String: String](from: decoder)
        var overrides: [MessageKey: String] = [:]
        for (name, text) in raw {
            guard let key = MessageKey(rawValue: name) else { throw UnknownKey(key: name) }
            overrides[key] = text
        }
        self.init(overrides)
    }

    public func encode(to encoder: any Encoder) throws {
        let raw = Dictionary(uniqueKeysWithValues: overrides.map { ($0.key.rawValue, $0.value) })
        try raw.encode(to: encoder)
    }
}
