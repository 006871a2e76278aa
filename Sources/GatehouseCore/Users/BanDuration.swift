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
        guard let total = TimeSpan.seconds(text, days: false), total <= Self.longest else { return nil }
        self = .seconds(total)
    }
}
