import Foundation

/// How long connections may idle or dawdle, and how many may be open at once.
///
/// An idle connection (no request in progress) closes after ``idleTimeout``; a request's
/// head must arrive within ``headerTimeout`` of its first byte; past ``maxConnections`` a new
/// connection is answered 503 and closed at once instead of queueing until descriptors run out.
public struct ConnectionLimits: Sendable, Equatable {
    /// Seconds a connection may stay open with nothing to do.
    public var idleTimeout: Double = 30
    /// Seconds from a request's first byte to the end of its headers.
    public var headerTimeout: Double = 10
    /// Connections open at once; by default a quarter below the process's file limit.
    public var maxConnections: Int = ConnectionLimits.defaultMaxConnections

    public init() {}

    /// Three quarters of the soft file-descriptor limit, at most 16 384: the rest stays free
    /// for the database, the log and a refused connection's own socket.
    public static var defaultMaxConnections: Int {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return 1024 }
        let soft = Int(clamping: limit.rlim_cur)  // RLIM_INFINITY clamps to Int.max
        return max(16, min(16_384, soft / 4 * 3))
    }
}
