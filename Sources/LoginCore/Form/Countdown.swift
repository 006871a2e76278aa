import Foundation

extension LoginState.Cooldown {
    /// Where a countdown stands at `now`: the deadline it keeps and the whole seconds left
    /// (rounded up; zero or less means it is over).
    ///
    /// A countdown starts as the server's seconds and becomes a deadline on the first tick,
    /// so every machine (sign-in, phone, code entry) counts the same way from the host's clock.
    func resolved(at now: Date) -> (deadline: Date, remaining: Int) {
        let until: Date
        switch self {
        case .starting(let seconds): until = now.addingTimeInterval(TimeInterval(seconds))
        case .until(let date): until = date
        }
        return (until, Int(until.timeIntervalSince(now).rounded(.up)))
    }

    /// The one countdown step every machine takes on a tick: the whole seconds left while the
    /// countdown runs (kept as a deadline), or `nil` once it is over (and `cooldown` is cleared).
    static func advance(_ cooldown: inout Self?, to now: Date) -> Int? {
        guard let current = cooldown else { return nil }
        let (deadline, remaining) = current.resolved(at: now)
        cooldown = remaining > 0 ? .until(deadline) : nil
        return remaining > 0 ? remaining : nil
    }
}
