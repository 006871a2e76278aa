import GatehouseCore

extension HashingLimits {
    /// For servers inside a test process: many run at once on one process's hashing threads,
    /// so the queue never refuses for load. The benchmark measures the real defaults.
    public static let tests = HashingLimits(queueDepth: 100_000)
}
