import Foundation
import LoginCore

/// Whether a sign-in came from a device and address the account has not used lately: the
/// test behind "New sign-in to your account" (`notifications.newDevice`, issue 39).
///
/// Seen means an earlier sign-in in the audit log, or a live session, with the same device
/// label and client address in the last 90 days. An account made in the last ten minutes is
/// not told of its first sign-ins. The audit log is written in batches, so two sign-ins from
/// one new device within a second of each other may both be told.
package struct NewDeviceCheck: Sendable {
    let audit: any AuditRepository
    let sessions: any SessionRepository

    /// How long a just-made account's sign-ins are not news.
    static let newAccountGrace: TimeInterval = 600

    package init(audit: any AuditRepository, sessions: any SessionRepository) {
        self.audit = audit
        self.sessions = sessions
    }

    /// Whether `sessionID`'s sign-in from `device` at `address` is the first from them in the window.
    func isNew(_ user: UserRecord, sessionID: String, device: String?, address: String?, at date: Date) async throws -> Bool {
        guard date.timeIntervalSince(user.createdAt) > Self.newAccountGrace else { return false }
        let since = date.addingTimeInterval(-TimeInterval(NotificationOptions.newDeviceWindowDays) * 86400)
        let earlier = try await audit.auditEntries(AuditQuery(userID: user.id, since: since, types: [AuditEventType.signInSucceeded.rawValue]))
        if earlier.contains(where: { $0.device == device && $0.address == address && $0.details["session_id"] != sessionID }) { return false }
        let live = try await sessions.liveSessions(userID: user.id, at: date)
        return !live.contains { $0.id != sessionID && $0.deviceLabel == device && $0.address == address }
    }
}
