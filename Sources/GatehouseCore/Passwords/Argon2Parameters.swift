/// The cost of an argon2id hash.
public struct Argon2Parameters: Sendable, Equatable, Codable {
    /// Memory in KiB.
    public var memoryKiB: UInt32
    /// Passes over memory.
    public var iterations: UInt32
    /// Lanes.
    public var parallelism: UInt32

    public init(memoryKiB: UInt32, iterations: UInt32, parallelism: UInt32) {
        self.memoryKiB = memoryKiB
        self.iterations = iterations
        self.parallelism = parallelism
    }

    /// OWASP's minimum for argon2id: m=19 MiB, t=2, p=1.
    public static let owasp = Argon2Parameters(memoryKiB: 19 * 1024, iterations: 2, parallelism: 1)
}
