import NIOPosix
import SQLKit

/// The SQLite connection as SQLKit's database, whose sessions run on the connection's own thread.
///
/// Every SQLite statement runs on the connection's thread. A statement called from anywhere
/// else costs two thread hops: the caller's task waits while the thread runs the statement, then
/// is woken on another thread. A transaction of five statements cost ten hops, and each is a
/// context switch. ``withSession(_:)`` runs its whole closure with the connection's thread as
/// its task executor, so the statements inside follow one another on that thread, and the
/// session costs two hops however many statements it runs.
struct SQLiteThreadDatabase: ForwardingSQLDatabase {
    let plain: any SQLDatabase
    let executor: SQLiteThreadExecutor

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await withTaskExecutorPreference(executor) { try await closure(plain) }
    }
}

/// The connection's one thread as a task executor: jobs queue behind its statements, in order.
///
/// A job submitted once the thread has stopped runs where it was submitted, so no task is lost
/// at shutdown (its next statement then fails: the pool is no longer active).
final class SQLiteThreadExecutor: TaskExecutor {
    let thread: NIOThreadPool

    init(thread: NIOThreadPool) {
        self.thread = thread
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        thread.submit { _ in job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
