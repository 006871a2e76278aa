@testable import LoginCore

/// The behaviour suites compare a machine's effects without its `.track` reports: those are
/// proved, event by event and in order, by ``AnalyticsTests``.
extension Array where Element: TrackableEffect {
    /// The effects other than analytics reports.
    var untracked: [Element] { filter { $0.tracked == nil } }
}
