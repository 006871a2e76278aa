@testable import LoginCore

/// The behaviour suites compare a machine's effects without its `.track` reports: those are
/// proved, event by event and in order, by ``AnalyticsTests``.
protocol TrackingEffect: Equatable {
    var isTrack: Bool { get }
}

extension Array where Element: TrackingEffect {
    /// The effects other than analytics reports.
    var untracked: [Element] { filter { !$0.isTrack } }
}

extension LoginEffect: TrackingEffect {
    var isTrack: Bool { if case .track = self { true } else { false } }
}

extension PhoneSignInEffect: TrackingEffect {
    var isTrack: Bool { if case .track = self { true } else { false } }
}

extension CodeEntryEffect: TrackingEffect {
    var isTrack: Bool { if case .track = self { true } else { false } }
}

extension ProviderButtonEffect: TrackingEffect {
    var isTrack: Bool { if case .track = self { true } else { false } }
}

extension SignUpEffect: TrackingEffect {
    var isTrack: Bool { if case .track = self { true } else { false } }
}

extension PasskeySignInEffect: TrackingEffect {
    var isTrack: Bool { if case .track = self { true } else { false } }
}

extension BiometricOfferEffect: TrackingEffect {
    var isTrack: Bool { if case .track = self { true } else { false } }
}
