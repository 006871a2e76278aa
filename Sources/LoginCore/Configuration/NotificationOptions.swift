/// Which optional security notices an app mails (`"notifications"` in an app file, issue 39).
///
/// The notices of changes (password, email, second factor, passkey, deletion) always go where
/// the app sends mail; these are the ones an app chooses.
public struct NotificationOptions: Equatable, Sendable {
    /// "New sign-in to your account" for a device and address not seen on the account in the
    /// last ``newDeviceWindowDays`` days.
    public var newDevice: Bool

    /// How far back a device and address count as seen.
    public static let newDeviceWindowDays = 90

    public init(newDevice: Bool = false) {
        self.newDevice = newDevice
    }
}

extension NotificationOptions: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable { case newDevice }

    public init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(newDevice: try container.decodeIfPresent(Bool.self, forKey: .newDevice) ?? false)
    }
}
