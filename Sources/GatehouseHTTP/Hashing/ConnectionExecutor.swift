import Dispatch
import GatehouseCore
import Synchronization

/// A connection's task executor: a free hashing thread while the connection signs in with a
/// password, Swift's pool otherwise.
///
/// Hummingbird reads each connection's requests in a task of its own. Between two requests it
/// waits for the next; the event loop resumes it on Swift's pool, and a password sign-in then
/// hops from there to a hashing thread (``HashingThreadResponder``), and back to the pool after
/// its answer. With this executor as the connection's preference, a connection whose last
/// request was a password sign-in resumes on a hashing thread with nothing to do, so its next
/// sign-in starts there without waking a thread of Swift's pool, and its task stays on that
/// thread after the answer instead of waking one. With every hashing thread busy, or after any
/// other request, it resumes on Swift's pool as before, so no other request waits behind a hash.
package final class ConnectionExecutor: TaskExecutor, Sendable {
    /// The executor of the connection the current task serves, when it has one.
    @TaskLocal package static var current: ConnectionExecutor?

    private let pool: HashingPool
    private let signingIn = Atomic<Bool>(false)

    package init(pool: HashingPool) {
        self.pool = pool
    }

    /// Records whether the request being answered is a password sign-in, which decides where
    /// the connection's next resumption runs.
    package func answering(signIn: Bool) {
        signingIn.store(signIn, ordering: .relaxed)
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job), executor = asUnownedTaskExecutor()
        if signingIn.load(ordering: .relaxed), pool.runOnIdleThread(job, as: executor) { return }
        DispatchQueue.global().async { job.runSynchronously(on: executor) }
    }
}
