import GatehouseCore

extension HashingLimits {
    /// For servers inside a test process: many run at once on one process's hashing threads,
    /// so the queue never refuses for load, and the threads run at normal priority because the
    /// other load here is the tests themselves. The benchmark measures the real defaults.
    public static let tests: HashingLimits = {
        var limits = HashingLimits(queueDepth: 100_000)
        limits.niceness = 0
        return limits
    }()
}
