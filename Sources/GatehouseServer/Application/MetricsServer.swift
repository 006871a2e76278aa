import Foundation
import GatehouseCore
import Hummingbird
import Logging
import Metrics
import NIOCore
import Prometheus
import ServiceLifecycle

/// The `/metrics` listener: Prometheus' text format from the registry, with the process's own
/// figures read at each scrape, and the live-session gauge sampled in the background.
enum MetricsServer {
    static func make(_ endpoint: MetricsEndpoint, sessions: any SessionRepository, clock: @escaping @Sendable () -> Date, logger: Logger) -> some Service {
        let process = ProcessMetrics(registry: endpoint.registry)
        let router = Router()
        router.get("/metrics") { _, _ in
            process.update()
            var bytes: [UInt8] = []
            endpoint.registry.emit(into: &bytes)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: bytes))
            )
        }
        return Application(
            router: router, configuration: .init(address: .hostname(endpoint.host, port: endpoint.port), serverName: "Gatehouse metrics"),
            services: [ActiveSessionSampler(sessions: sessions, clock: clock, logger: logger)], logger: logger
        )
    }
}

/// Samples how many sessions are live into `gatehouse_active_sessions`, every 15 seconds.
struct ActiveSessionSampler: Service {
    let sessions: any SessionRepository
    let clock: @Sendable () -> Date
    let logger: Logger

    func run() async throws {
        let gauge = Gauge(label: "gatehouse_active_sessions")
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            do {
                gauge.record(try await sessions.countLiveSessions(at: clock()))
            } catch {
                logger.warning("Active sessions not counted", metadata: ["error": "\(error)"])
            }
            try? await gracefulShutdown(for: .seconds(15))
        }
    }

    /// Sleeps for `duration`, or until a graceful shutdown begins.
    private func gracefulShutdown(for duration: Duration) async throws {
        try await cancelWhenGracefulShutdown { try await Task.sleep(for: duration) }
    }
}
