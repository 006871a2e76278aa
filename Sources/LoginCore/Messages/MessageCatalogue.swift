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
    /// The rate-limit message for a wait: `{time}` is the real wait in words ("15 minutes").
    public func rateLimitedText(seconds: Int?) -> String {
        text(.rateLimited, ["time": WaitDuration.text(seconds: seconds)])
    }

    /// What a screen reader hears when a new code was asked for inside the resend window:
    /// `{time}` is the real wait in words ("33 seconds").
    public func resendWaitText(seconds: Int) -> String {
        text(.resendWait, ["time": WaitDuration.text(seconds: seconds)])
    }

    /// The resend countdown for the seconds left, as `m:ss` ("Resend code in 0:33").
    public func resendCountdownText(seconds: Int) -> String {
        text(.resendCountdown, ["time": Self.clock(seconds)])
    }

    /// What a screen reader hears when a countdown ends: the button it held is enabled again.
    public func retryReadyText(button: MessageKey) -> String {
        text(.retryReady, ["button": text(button)])
    }

    /// The countdown text for the seconds left, as `m:ss`.
    public func retryCountdownText(seconds: Int) -> String {
        text(.retryCountdown, ["time": Self.clock(seconds)])
    }

    /// Seconds as `m:ss` (`90` → `1:30`).
    public static func clock(_ seconds: Int) -> String {
        "\(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)"
    }
}

extension MessageCatalogue: Codable {
    /// A rate-limit text that does not name the wait through `{time}`: a fixed time ("15
    /// minutes") is false whenever another limit, with another wait, refuses.
    struct FixedWait: Error, CustomStringConvertible {
        let text: String
        var description: String {
            "messages.rateLimited must name the wait with the {time} placeholder, "
                + "for example \"Too many attempts. Try again in {time}.\" (it reads \"15 minutes\", "
                + "\"45 seconds\", \"1 hour\"); got \"\(text)\""
        }
    }

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
        if let wait = overrides[.rateLimited], !wait.contains("{time}") { throw FixedWait(text: wait) }
        self.init(overrides)
    }

    public func encode(to encoder: any Encoder) throws {
        let raw = Dictionary(uniqueKeysWithValues: overrides.map { ($0.key.rawValue, $0.value) })
        try raw.encode(to: encoder)
    }
}
