/// Where a run of storage calls costs least.
///
/// An engine whose statements all run on one thread (SQLite, on its connection's) pays a
/// thread hop there and another back for each statement called from elsewhere, and on a small
/// machine each hop is a context switch of tens of microseconds. ``nearStorage(_:)`` runs a
/// whole piece of work on that thread, so its statements follow one another without a hop,
/// and the work pays one hop in and one out. The work itself must be short: everything else
/// that needs the database waits behind it, so it must never block, and anything slow it
/// awaits (a password hash) runs elsewhere while the thread serves others. An engine with a
/// pool of connections (PostgreSQL) runs the work where it is.
public protocol StorageAffinity: Sendable {
    func nearStorage<T>(_ work: () async throws -> T) async throws -> T
    /// Whether a sign-in that hashes may run wholly on a hashing thread, its statements in
    /// place there on a connection of that thread's own.
    var runsBesideHashing: Bool { get }
}
