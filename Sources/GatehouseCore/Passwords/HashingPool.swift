import CArgon2
import Foundation
import GatehouseHashWorker
import Metrics
#if canImport(Glibc)
import Glibc
#endif

/// How password hashing may use the machine.
public struct HashingLimits: Sendable, Hashable {
    /// Hashing threads; one per core lets logins reach the argon2id bound.
    public var threads = ProcessInfo.processInfo.activeProcessorCount
    /// Hashes that may wait for a thread; past this a sign-in is answered 503 at once.
    public var queueDepth = 64
    /// The threads' nice value (Linux): the event loops' own 0, so a sign-in's hash gets an
    /// equal share of the cores beside other requests.
    ///
    /// Measured on two cores (`BENCH_HASHING_NICENESS=N gatehouse-bench logins 4 3`, issue 41):
    /// at nice 10, logins beside a saturating `/api/me` load kept only 0.27 to 0.30 of their
    /// rate alone, since every read preempted every hash; at nice 0 they keep about half (0.44
    /// to 0.54), while `/api/me`'s p99 during a login flood stayed near 4 ms (2.3 to 4 ms at
    /// nice 10). Nice 5 fell between on both. The hash queue's bound still refuses a flood.
    public var niceness: Int32 = 0
    /// Whether each thread hands its libsodium hashes to a helper process of its own
    /// (``HashWorker``), when the installation has one (`serve --hashing-helpers`).
    ///
    /// Off by default. Built when libsodium still mapped fresh memory for every hash, so that
    /// threads would not block on each other's memory-map lock (issue 41): it lifted logins at
    /// 2 connections by about a tenth but raised `/api/me`'s p99 in a login flood past 5 ms.
    /// Since a hash reuses its thread's memory (``Argon2Scratch``, lent to libsodium), nothing
    /// maps memory per hash, and threads and helpers hash at about the same rate
    /// (`gatehouse-bench bounds`).
    public var helperProcesses = false

    public init() {}

    /// Limits with a queue of `queueDepth` (tests that run many servers at once use a deep one).
    public init(queueDepth: Int) {
        self.queueDepth = queueDepth
    }
}

/// Dedicated threads for password hashing, with a bounded queue.
///
/// Hashing never runs on an event loop or on the shared NIO thread pool, which also runs
/// file and database work. A full queue refuses new work with
/// ``GatehouseError/overloaded(retryAfter:)`` instead of letting latency grow without bound.
///
/// The pool is also a task executor: a password sign-in runs on one of its threads from its
/// limits to its session (``runHere(_:)``), and hashes there in place, in the same queue as
/// the hashes, so it waits for no other thread around its hash.
package final class HashingPool: TaskExecutor, @unchecked Sendable {
    package let limits: HashingLimits
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    /// Jobs that go before the hashes (``runOnIdleThread(_:as:)``).
    private var ahead: [@Sendable () -> Void] = []
    /// Threads waiting for work.
    private var idle = 0

    private init(limits: HashingLimits) {
        self.limits = limits
        for index in 0..<max(1, limits.threads) {
            let name = "argon2id-\(index)"
            let thread = Thread { [unowned self] in
                #if os(Linux)
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(gatehouse_thread_id()), limits.niceness)
                // Foundation's `Thread.name` does not reach the kernel on Linux: without this the
                // threads carry the name of whichever thread started them.
                gatehouse_name_thread(name)
                #endif
                _ = Argon2Scratch.current  // the memory its hashes reuse, mapped on the first
                pthread_setspecific(Self.laneKey, Unmanaged.passUnretained(self).toOpaque())
                if limits.helperProcesses { HashWorker.attach() }
                self.work()
            }
            thread.name = name
            thread.start()
        }
    }

    /// One pool per distinct limits for the life of the process, so servers built again and
    /// again (tests) do not leak threads.
    package static func shared(_ limits: HashingLimits) -> HashingPool {
        registry.withLock { pools in
            if let pool = pools[limits] { return pool }
            let pool = HashingPool(limits: limits)
            pools[limits] = pool
            return pool
        }
    }

    private static let registry = LockedPools()
    /// Hashes waiting for a thread (`gatehouse_hashing_queue_depth`).
    private static let depth = Gauge(label: "gatehouse_hashing_queue_depth")
    /// How long each hash, or a signing-in connection's next request, waited for a thread
    /// (`gatehouse_hashing_wait_seconds`).
    private static let wait = Metrics.Timer(label: "gatehouse_hashing_wait_seconds")
    /// Sign-ins refused because the queue was full.
    private static let refused = Counter(label: "gatehouse_throttled_total", dimensions: [("limit", LimitKind.hashingQueue.rawValue)])

    /// Runs `work` on a hashing thread.
    /// - Parameters:
    ///   - refusable: whether a full queue refuses the work with
    ///     ``GatehouseError/overloaded(retryAfter:)`` (sign-ins) rather than queueing it anyway
    ///     (an operator creating an account).
    ///   - work: the hash.
    package func run<T: Sendable>(refusable: Bool, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        // Already on one of the threads (a sign-in running here whole): hash in place.
        if isCurrent { return try work() }
        return try await withCheckedThrowingContinuation { continuation in
            condition.lock()
            guard !refusable || jobs.count - head < limits.queueDepth else {
                condition.unlock()
                Self.refused.increment()
                continuation.resume(throwing: GatehouseError.overloaded(retryAfter: 1))
                return
            }
            let queued = DispatchTime.now().uptimeNanoseconds
            jobs.append {
                Self.wait.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - queued))
                continuation.resume(with: Result { try work() })
            }
            Self.depth.record(jobs.count - head)
            condition.signal()
            condition.unlock()
        }
    }

    /// Whether the calling thread is one of this pool's.
    package var isCurrent: Bool {
        pthread_getspecific(Self.laneKey) == Unmanaged.passUnretained(self).toOpaque()
    }

    /// Whether the calling thread is a hashing thread of any pool.
    package static var onHashingThread: Bool { pthread_getspecific(laneKey) != nil }

    private static let laneKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Whether the queue has room for another sign-in (``runHere(_:)``).
    package var hasRoom: Bool { waiting < limits.queueDepth }

    /// Runs `work` wholly on one of the hashing threads, its hash in place: a sign-in that
    /// hashes, whose statements also run in place there (``StorageAffinity/runsBesideHashing``).
    ///
    /// The caller asks ``hasRoom`` first; with the queue full it signs in where it would
    /// otherwise, so its limits answer before the hasher refuses it. Called on one of the
    /// pool's threads (a request the server answers from there), `work` runs in place.
    package func runHere<T>(_ work: () async throws -> T) async throws -> T {
        // Already on one of the threads (a request answered from here): run in place.
        if isCurrent { return try await work() }
        let queued = DispatchTime.now().uptimeNanoseconds
        return try await withTaskExecutorPreference(self) {
            // Its hash waits for no thread but this one: the wait was to get here.
            Self.wait.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - queued))
            return try await work()
        }
    }

    /// A task's job, queued behind the hashes.
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        Self.depth.record(jobs.count - head)
        condition.signal()
        condition.unlock()
    }

    /// Runs `job` as `executor` on a hashing thread that has nothing else to do, ahead of any
    /// hash queued meanwhile; `false`, and nothing run, when every thread is busy.
    ///
    /// Called on one of the pool's threads, that thread counts as free, as the job it runs is
    /// most often about to suspend (``ConnectionExecutor``: a sign-in's connection, after its
    /// answer). Otherwise the job waits for the first thread that is, still ahead of the hashes.
    package func runOnIdleThread(_ job: UnownedJob, as executor: UnownedTaskExecutor) -> Bool {
        let here = isCurrent
        condition.lock()
        defer { condition.unlock() }
        guard here || idle > ahead.count else { return false }
        let queued = DispatchTime.now().uptimeNanoseconds
        ahead.append {
            // Most often a sign-in's next request: what it waited for its thread.
            Self.wait.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - queued))
            job.runSynchronously(on: executor)
        }
        if idle > 0 { condition.signal() }
        return true
    }

    /// Jobs queued for the threads.
    private var waiting: Int {
        condition.lock()
        defer { condition.unlock() }
        return jobs.count - head
    }

    private func work() {
        while true {
            condition.lock()
            while head == jobs.count, ahead.isEmpty {
                idle += 1
                // Idle past the scratch's release time: give the argon2 memory and the helper back.
                let woken = condition.wait(until: Date(timeIntervalSinceNow: Argon2Scratch.idleSeconds))
                idle -= 1
                if !woken {
                    Argon2Scratch.existing?.releaseIfIdle()
                    HashWorker.existing?.stopIfIdle()
                }
            }
            if !ahead.isEmpty {
                let job = ahead.removeFirst()
                condition.unlock()
                job()
                continue
            }
            let job = jobs[head]
            head += 1
            Self.depth.record(jobs.count - head)
            if head > 1024, head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job()
        }
    }
}

/// The registry of pools, behind a lock.
private final class LockedPools: @unchecked Sendable {
    private let lock = NSLock()
    private var pools: [HashingLimits: HashingPool] = [:]

    package func withLock<T>(_ body: (inout [HashingLimits: HashingPool]) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&pools)
    }
}
