import Foundation
import GatehouseModel

/// One signed-in device as its owner sees it in a device list.
public struct DeviceSession: Sendable, Equatable {
    public let session: SessionRecord
    /// Whether this is the session that asked.
    public let isCurrent: Bool
}

/// The device list: a person's signed-in sessions, and ending one of them.
package struct Devices: Sendable {
    let context: ServiceContext

    package init(context: ServiceContext) {
        self.context = context
    }

    var now: Date { context.now }

    /// The user's live sessions, most recently used first, the asking one marked current.
    ///
    /// A session a password change has ended is not live even before anything revokes it, so
    /// it is left out the same way ``livePrincipal(sessionID:)`` refuses it.
    package func devices(of principal: Principal) async throws -> [DeviceSession] {
        try await context.sessions.liveSessions(userID: principal.user.id, at: now)
            .filter { $0.createdAt >= principal.user.passwordChangedAt }
            .map { DeviceSession(session: $0, isCurrent: $0.id == principal.session.id) }
    }

    /// Ends one of the user's sessions: its refresh token and its access tokens stop working at
    /// once (every authenticated request asks whether its session is live).
    ///
    /// Another user's session, or one already over, is ``GatehouseError/notFound``: the answer
    /// does not say whether the id exists.
    package func endSession(_ id: String, for principal: Principal) async throws {
        guard let session = try await context.sessions.session(id: id), session.userID == principal.user.id,
              session.revokedAt == nil, now < session.expiresAt
        else { throw GatehouseError.notFound }
        if id != principal.session.id { try await context.requireStepUp(principal) }
        try await context.sessions.revokeSession(id: id, at: now, reason: .signedOutFromDeviceList)
        context.logger.info("Session ended from the device list", metadata: ["user.id": "\(principal.user.id)", "session.id": "\(id)"])
        context.report(
            .sessionEnded(userID: principal.user.id, sessionID: id, reason: .signedOutFromDeviceList),
            address: principal.session.address, device: principal.session.deviceLabel
        )
    }
}

extension DeviceSummary {
    /// A live session as every surface's device list shows it.
    package init(_ device: DeviceSession) {
        let format = Date.ISO8601FormatStyle()
        let session = device.session
        self.init(
            id: session.id, device: session.deviceLabel ?? DeviceLabel.unknown, ipAddress: session.address,
            createdAt: session.createdAt.formatted(format), lastSeenAt: (session.lastSeenAt ?? session.createdAt).formatted(format),
            current: device.isCurrent
        )
    }
}
