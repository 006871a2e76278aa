import ArgumentParser
import Foundation
import GatehouseCore
import GatehouseServer

/// `serve`'s options for running it: the audit log, metrics, the admin API and the outbox.
public struct OperationsOptions: ParsableArguments {
    public init() {}

    @Option(help: "How long audit entries are kept, such as 90d or 24h; older ones are pruned hourly (default 90d).")
    var auditRetention: String = "90d"

    @Flag(help: "Do not write the audit log.")
    var noAudit = false

    @Option(help: "Forward audit entries to this Standard Webhooks receiver (a SIEM); https, or http on loopback.")
    var auditWebhook: String?

    @Option(help: "The --audit-webhook's secret (whsec_…); or GATEHOUSE_AUDIT_WEBHOOK_SECRET.")
    var auditWebhookSecret: String?

    @Option(help: "Serve Prometheus metrics at /metrics on this port, on a listener of its own.")
    var metricsPort: Int?

    /// Whether the metrics listener would take `port` (the public one).
    func metricsCollide(with port: Int) -> Bool { metricsPort.map { $0 != 0 && $0 == port } ?? false }

    @Option(help: "The address the metrics listener binds (default 127.0.0.1: loopback only).")
    var metricsHost = "127.0.0.1"

    @Option(help: "Open Supabase's admin API (/auth/v1/admin/users) to this key, at least 32 characters; or GATEHOUSE_SERVICE_ROLE_KEY.")
    var serviceRoleKey: String?

    @Option(help: "Tries before an outgoing mail or SMS is dead-lettered (default 8).")
    var outboxAttempts = 8

    @Option(help: "The outbox's pause after a first failed send, such as 10s; doubled after each later one, up to 10 minutes (default 10s).")
    var outboxRetryAfter = "10s"

    @Option(help: "How long an instance holds a message it is sending before another may take it, such as 2m (default 2m).")
    var outboxLease = "2m"

    @Option(help: "How long sent messages are listed (without their content), such as 7d (default 7d).")
    var outboxRetention = "7d"

    static let environment = ProcessInfo.processInfo.environment

    var resolvedServiceRoleKey: String? { serviceRoleKey ?? Self.environment["GATEHOUSE_SERVICE_ROLE_KEY"] }
    var resolvedWebhookSecret: String? { auditWebhookSecret ?? Self.environment["GATEHOUSE_AUDIT_WEBHOOK_SECRET"] }

    public func validate() throws {
        guard (1...100).contains(outboxAttempts) else { throw ValidationError("--outbox-attempts must be between 1 and 100") }
        for (flag, value) in [("--outbox-retry-after", outboxRetryAfter), ("--outbox-lease", outboxLease), ("--outbox-retention", outboxRetention)]
        where TimeSpan.seconds(value).map({ $0 < 1 }) ?? true {
            throw ValidationError("\(flag) '\(value.prefix(40))' is not a length of time such as 30s, 2m or 7d")
        }
        if TimeSpan.seconds(auditRetention) == nil {
            throw ValidationError("--audit-retention '\(auditRetention.prefix(40))' is not a length of time such as 90d or 24h")
        }
        if let metricsPort, !(0...65535).contains(metricsPort) {
            throw ValidationError("--metrics-port must be between 0 and 65535, not \(metricsPort)")
        }
        if metricsHost.isEmpty { throw ValidationError("--metrics-host must not be empty") }
        if let key = resolvedServiceRoleKey, key.count < 32 {
            throw ValidationError("the service role key must be at least 32 characters")
        }
        if auditWebhook != nil, resolvedWebhookSecret == nil {
            throw ValidationError("--audit-webhook needs --audit-webhook-secret or GATEHOUSE_AUDIT_WEBHOOK_SECRET")
        }
        if noAudit, auditWebhook != nil { throw ValidationError("--audit-webhook needs the audit log; drop --no-audit") }
    }

    /// Applies these options; bootstraps the process's metrics when a port is given.
    func apply(to configuration: inout GatehouseConfiguration) {
        configuration.audit.enabled = !noAudit
        configuration.audit.retention = TimeSpan.seconds(auditRetention)
        if let auditWebhook, let secret = resolvedWebhookSecret { configuration.audit.webhook = (auditWebhook, secret) }
        configuration.serviceRoleKey = resolvedServiceRoleKey
        configuration.outbox.maximumAttempts = outboxAttempts
        if let seconds = TimeSpan.seconds(outboxRetryAfter) { configuration.outbox.retryBase = seconds }
        if let seconds = TimeSpan.seconds(outboxLease) { configuration.outbox.lease = seconds }
        if let seconds = TimeSpan.seconds(outboxRetention) { configuration.outbox.sentRetention = seconds }
        if let metricsPort { configuration.metrics = MetricsEndpoint.bootstrap(host: metricsHost, port: metricsPort) }
    }
}
