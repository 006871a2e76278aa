import Foundation

/// How long a ban lasts, as GoTrue's `ban_duration` and `users ban --for` write it: Go's
/// duration syntax (`24h`, `1h30m`, `90s`, `500ms`), or `none` to lift a ban.
public enum BanDuration: Sendable, Equatable {
    case lift
    case seconds(TimeInterval)

    /// The longest ban: a hundred years, as GoTrue's dashboards write a permanent one (`876000h`).
    public static let longest: TimeInterval = 876_000 * 3600

    /// Reads `none` or a positive Go duration of at most ``longest``; `nil` for anything else.
    public init?(_ text: String) {
        if text == "none" {
            self = .lift
            return
        }
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("h", 3600), ("m", 60), ("s", 1)]
        var rest = Substring(text), total = 0.0
        guard !rest.isEmpty, rest.count <= 40 else { return nil }
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard !digits.isEmpty, let value = Double(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            guard let unit = units.first(where: { rest.hasPrefix($0.suffix) }) else { return nil }
            rest = rest.dropFirst(unit.suffix.count)
            total += value * unit.seconds
        }
        guard total > 0, total <= Self.longest else { return nil }
        self = .seconds(total)
    }
}
