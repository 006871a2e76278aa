import Foundation
import Metrics
import Prometheus

/// Where `/metrics` is served: its own listener, on loopback unless `--metrics-host` says
/// otherwise, never on the public port.
public struct MetricsEndpoint: Sendable {
    public var host: String
    public var port: Int
    public let registry: PrometheusCollectorRegistry

    public init(host: String = "127.0.0.1", port: Int, registry: PrometheusCollectorRegistry) {
        self.host = host
        self.port = port
        self.registry = registry
    }

    /// Makes the process's metrics go to a new registry served at `host:port`.
    ///
    /// `MetricsSystem` is bootstrapped once per process: `serve` calls this before building
    /// the application; in-process tests, which build many applications, never do.
    public static func bootstrap(host: String, port: Int) -> MetricsEndpoint {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
        ]
        MetricsSystem.bootstrap(factory)
        return MetricsEndpoint(host: host, port: port, registry: registry)
    }
}
