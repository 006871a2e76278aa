import Foundation

/// How the audit log runs.
public struct AuditSettings: Sendable {
    /// Whether security events are written to the database at all.
    public var enabled = true
    /// How long entries are kept; `nil` keeps them for ever.
    public var retention: TimeInterval? = 90 * 86400
    /// A Standard Webhooks receiver each written batch is forwarded to (a SIEM), and its secret.
    public var webhook: (url: String, secret: String)?

    public init() {}
}
