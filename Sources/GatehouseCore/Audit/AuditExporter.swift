/// Where written audit entries are forwarded (a SIEM's webhook).
public protocol AuditExporter: Sendable {
    /// Sends one batch; the implementation retries, and a final failure is thrown.
    func export(_ entries: [AuditEntry]) async throws
}
