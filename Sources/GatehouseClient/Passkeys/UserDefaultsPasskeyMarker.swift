import Foundation

/// The enrolment marker in `UserDefaults`, one per server: what an app keeps between launches.
public struct UserDefaultsPasskeyMarker: PasskeyMarker, @unchecked Sendable {
    private let defaults: UserDefaults
    private let key: String

    /// - Parameter server: the auth server; each server has its own marker.
    public init(server: URL, defaults: UserDefaults = .standard) {
        self.defaults = defaults
        key = "gatehouse.passkey.enrolled." + (server.host ?? server.absoluteString)
    }

    public func isEnrolled() async -> Bool { defaults.bool(forKey: key) }
    public func setEnrolled(_ enrolled: Bool) async { defaults.set(enrolled, forKey: key) }
}
