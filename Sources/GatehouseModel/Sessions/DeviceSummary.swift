/// One signed-in device, as `GET /api/sessions`, GraphQL's `sessions` and the SDK show it.
public struct DeviceSummary: Codable, Sendable, Equatable {
    /// The session's id: what `DELETE /api/sessions/{id}` ends.
    public var id: String
    /// "iPhone · Safari", read from the user agent at sign-in.
    public var device: String
    /// The client address at sign-in.
    public var ipAddress: String?
    public var createdAt: String
    /// When the session was last used: signed in or refreshed (at most once a minute).
    public var lastSeenAt: String
    /// Whether this is the session that asked.
    public var current: Bool

    public init(id: String, device: String, ipAddress: String?, createdAt: String, lastSeenAt: String, current: Bool) {
        self.id = id
        self.device = device
        self.ipAddress = ipAddress
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.current = current
    }

    enum CodingKeys: String, CodingKey {
        case id, device, current
        case ipAddress = "ip_address", createdAt = "created_at", lastSeenAt = "last_seen_at"
    }
}

/// `GET /api/sessions`.
public struct DeviceList: Codable, Sendable, Equatable {
    public var sessions: [DeviceSummary]
    public init(sessions: [DeviceSummary]) { self.sessions = sessions }
}
