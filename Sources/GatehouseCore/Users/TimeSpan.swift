import Foundation

/// A length of time written the way operators write one: a number and a unit, repeated
/// (`90d`, `24h`, `1h30m`, `90s`, `500ms`).
public enum TimeSpan {
    /// The seconds `text` names, or `nil` when it is not such a length (or is zero or negative).
    /// - Parameter days: whether `d` (a day of 24 hours) is a unit; Go's durations, which
    ///   GoTrue's `ban_duration` uses, have none.
    public static func seconds(_ text: String, days: Bool = true) -> TimeInterval? {
        var units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("h", 3600), ("m", 60), ("s", 1)]
        if days { units.append(("d", 86400)) }
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
        return total > 0 && total.isFinite ? total : nil
    }
}
