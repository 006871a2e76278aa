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
}
