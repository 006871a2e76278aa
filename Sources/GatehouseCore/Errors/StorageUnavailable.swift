/// An error a storage adapter raises, which can say whether it means the database could not be
/// reached or could not take the write (a restart, a full disk), rather than a fault in the
/// request.
///
/// The HTTP foundation answers such errors 503 `server_busy` with a short `Retry-After`
/// (``GatehouseError/overloaded(retryAfter:)``), never 500: the person tries again, and nothing
/// was half-written, since every write that must be whole is one transaction.
public protocol StorageFailure: Error {
    /// The database is down, restarting, out of connections or out of space.
    var meansUnavailable: Bool { get }
}
