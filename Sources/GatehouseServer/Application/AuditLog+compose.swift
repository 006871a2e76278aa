import GatehouseCore
import GatehouseDelivery
import Logging

extension AuditLog {
    /// The audit log a configuration asks for: over the repository, pruned after the
    /// retention, forwarded to the webhook through the shared delivery queue when one is set.
    static func compose(
        _ configuration: GatehouseConfiguration, repository: any AuditRepository, deliveries: DeliveryQueue, logger: Logger
    ) throws -> AuditLog {
        let exporter = try configuration.audit.webhook.map { try WebhookAuditExporter(url: $0.url, secret: $0.secret, logger: logger) }
        return AuditLog(
            repository: repository, retention: configuration.audit.retention, exporter: exporter, deliveries: deliveries,
            clock: configuration.clock, logger: logger
        )
    }
}
