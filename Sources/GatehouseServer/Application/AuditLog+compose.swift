import GatehouseCore
import GatehouseDelivery
import Logging

extension AuditLog {
    /// The audit log a configuration asks for: over the repository, pruned after the retention.
    static func compose(_ configuration: GatehouseConfiguration, repository: any AuditRepository, logger: Logger) -> AuditLog {
        AuditLog(repository: repository, retention: configuration.audit.retention, clock: configuration.clock, logger: logger)
    }

    /// The outbox channel that carries written batches to the audit webhook, when one is set:
    /// unmetered (the server makes these itself) and never itself audited.
    static func exports(
        _ configuration: GatehouseConfiguration, throttles: any ThrottleRepository, references: AccountKeys, logger: Logger
    ) throws -> MessageDispatch? {
        guard configuration.audit.enabled, let webhook = configuration.audit.webhook else { return nil }
        return MessageDispatch(
            channel: .auditWebhook, throttles: throttles, budget: nil, perHour: .max, overBudgetResult: .dropped,
            sender: try WebhookAuditExporter(url: webhook.url, secret: webhook.secret, logger: logger), references: references,
            logger: logger
        )
    }
}
