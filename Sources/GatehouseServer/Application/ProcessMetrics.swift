import Foundation
import Prometheus
import Synchronization

/// The process's CPU time, memory, open files and start time, as Prometheus' client libraries
/// name them (`process_cpu_seconds_total`, `process_resident_memory_bytes`, …), read from
/// `/proc/self` at each scrape. Elsewhere than Linux they are left out.
final class ProcessMetrics: Sendable {
    private let cpu: Prometheus.Counter
    private let resident: Prometheus.Gauge
    private let virtual: Prometheus.Gauge
    private let openFiles: Prometheus.Gauge
    private let maxFiles: Prometheus.Gauge
    private let started: Prometheus.Gauge
    private let cpuSoFar = Mutex(0.0)

    init(registry: PrometheusCollectorRegistry) {
        func named(_ name: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(namespace: "process", metricName: name, unitName: unit, helpText: help)
        }
        cpu = registry.makeCounter(descriptor: named("cpu_seconds", "total", "User and system CPU time spent, in seconds."))
        resident = registry.makeGauge(descriptor: named("resident_memory", "bytes", "Resident memory size in bytes."))
        virtual = registry.makeGauge(descriptor: named("virtual_memory", "bytes", "Virtual memory size in bytes."))
        openFiles = registry.makeGauge(descriptor: named("open", "fds", "Number of open file descriptors."))
        maxFiles = registry.makeGauge(descriptor: named("max", "fds", "Maximum number of open file descriptors."))
        started = registry.makeGauge(descriptor: named("start_time", "seconds", "Start time of the process since the epoch, in seconds."))
    }

    func update() {
        #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")")
        else { return }
        // Fields after the command name's closing parenthesis, from field 3 (state) on.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 22, let user = Double(fields[11]), let system = Double(fields[12]), let startTicks = Double(fields[19]),
              let vsize = Double(fields[20]), let rssPages = Double(fields[21])
        else { return }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let total = (user + system) / ticks
        let delta = cpuSoFar.withLock { previous in
            defer { previous = max(previous, total) }
            return max(0, total - previous)
        }
        cpu.increment(by: delta)
        resident.set(rssPages * Double(sysconf(Int32(_SC_PAGESIZE))))
        virtual.set(vsize)
        if let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") { openFiles.set(Double(descriptors.count)) }
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 { maxFiles.set(Double(limit.rlim_cur)) }
        if let boot = Self.bootTime { started.set(boot + startTicks / ticks) }
        #endif
    }

    /// The system's boot time (`btime` in `/proc/stat`), in seconds since the epoch.
    private static let bootTime: Double? = {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("btime ") })
        else { return nil }
        return Double(line.dropFirst(6))
    }()
}
