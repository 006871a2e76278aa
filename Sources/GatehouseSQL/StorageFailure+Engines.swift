import GatehouseCore
import PostgresKit

extension PSQLError: StorageFailure {
    /// The connection failed or closed, or the server refused for a reason of its own state:
    /// SQLSTATE class 08 (connection), 53 (out of resources, such as connections or disk) and
    /// 57P (shutting down, starting up).
    public var meansUnavailable: Bool {
        switch code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed:
            return true
        case .server:
            guard let state = serverInfo?[.sqlState] else { return false }
            return state.hasPrefix("08") || state.hasPrefix("53") || state.hasPrefix("57P")
        default:
            return false
        }
    }
}

extension ConnectionPoolTimeoutError: StorageFailure {
    /// Every pooled connection stayed busy, or none could be opened, for as long as a request
    /// may wait (``PostgresDeadlines/connectionWait``).
    public var meansUnavailable: Bool { true }
}

extension ConnectionPoolError: StorageFailure {
    /// The pool is shutting down with the server.
    public var meansUnavailable: Bool { true }
}
