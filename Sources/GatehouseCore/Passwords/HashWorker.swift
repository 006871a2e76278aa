import Foundation
import GatehouseHashWorker
import Logging
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A hashing thread's helper process (`gatehouse-hasher`), which computes its libsodium hashes.
///
/// libsodium maps each hash's 19 MiB (pre-faulted) and unmaps it after, and both take the
/// process's memory-map lock for writing: two hashing threads of one process block on each
/// other there, and so does every page fault of the event loops behind them (issue 41
/// measured two threads at 90 to 94 hashes/s where two processes reached 103 to 106). A helper
/// process has a lock of its own. With ``HashingLimits/helperProcesses`` (off by default: the
/// property says what it trades), each hashing thread starts its helper on its first hash,
/// sends it the hash over a socket pair and sleeps until the answer; the thread stops it after
/// ``idleSeconds`` without a hash (closing the socket, killing and reaping it), and it dies
/// with the thread.
///
/// The helper is `gatehouse-hasher` beside the running executable, or the path in the
/// `GATEHOUSE_HASHER` environment variable (`off` for none). Without one, or while it cannot
/// start or has just failed, the thread hashes itself: a sign-in never fails for it.
package final class HashWorker {
    /// How long a thread keeps its helper without hashing.
    static let idleSeconds = Argon2Scratch.idleSeconds
    /// How long after a failed start the thread hashes itself before trying again.
    static let retryDelay: Duration = .seconds(30)

    /// The helper's path, if this installation has one.
    package static let executable: String? = {
        if let configured = ProcessInfo.processInfo.environment["GATEHOUSE_HASHER"] {
            return configured == "off" || configured.isEmpty ? nil : configured
        }
        guard let me = Bundle.main.executableURL?.resolvingSymlinksInPath() else { return nil }
        let path = me.deletingLastPathComponent().appendingPathComponent("gatehouse-hasher").path
        return access(path, X_OK) == 0 ? path : nil
    }()

    private static let key = "gatehouse.argon2.worker"
    private static let logger = Logger(label: "gatehouse.hashing")

    private var process: pid_t = 0
    private var socket: Int32 = -1
    private var lastUse = ContinuousClock.now
    private var retryAt: ContinuousClock.Instant?

    /// The calling thread's worker, if it is a hashing thread with one.
    package static var existing: HashWorker? { Thread.current.threadDictionary[key] as? HashWorker }

    /// Gives the calling thread a worker when the installation has a helper.
    package static func attach() {
        guard executable != nil else { return }
        Thread.current.threadDictionary[key] = HashWorker()
    }

    /// Whether a helper process is running for this thread.
    var running: Bool { socket >= 0 }

    /// The helper's answer (the hash, or `nil` when libsodium could not compute it), or `nil`
    /// when there is no helper to ask, in which case the caller hashes itself.
    package func hash(_ request: HashRequest) -> [UInt8]?? {
        lastUse = .now
        guard running || start() else { return nil }
        var bytes = request.encoded
        defer { bytes.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) } }
        guard Descriptor.write(socket, bytes), let answer = HashReply.read(from: socket, length: Int(request.length)) else {
            Self.logger.warning("hashing helper stopped answering; hashing on the thread", metadata: ["pid": "\(process)"])
            stop()  // the next hash starts a new one
            return nil
        }
        return answer
    }

    /// Stops the helper if no hash has used it for `idle` seconds; returns whether it did.
    @discardableResult
    package func stopIfIdle(after idle: Duration = .seconds(idleSeconds)) -> Bool {
        guard running, ContinuousClock.now - lastUse >= idle else { return false }
        stop()
        return true
    }

    /// The helper's process id, while it runs.
    package var processID: pid_t? { running ? process : nil }

    private func start() -> Bool {
        guard let path = Self.executable, retryAt.map({ ContinuousClock.now >= $0 }) ?? true else { return false }
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Self.streamType, 0, &pair) == 0 else { return failedStart(path, errno) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pair[1], 0)
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
        defer { free(argv[0]) }
        let environment: [UnsafeMutablePointer<CChar>?] = [nil]
        var pid = pid_t()
        let status = posix_spawn(&pid, path, &actions, nil, argv, environment)
        close(pair[1])
        guard status == 0 else {
            close(pair[0])
            return failedStart(path, status)
        }
        process = pid
        socket = pair[0]
        retryAt = nil
        return true
    }

    private func failedStart(_ path: String, _ code: Int32) -> Bool {
        Self.logger.warning("could not start the hashing helper; hashing on the thread", metadata: [
            "path": "\(path)", "error": "\(String(cString: strerror(code)))",
        ])
        retryAt = .now + Self.retryDelay
        return false
    }

    private func stop() {
        guard running else { return }
        close(socket)
        socket = -1
        kill(process, SIGKILL)
        var status: Int32 = 0
        while waitpid(process, &status, 0) < 0, errno == EINTR {}
        process = 0
    }

    #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    #else
    private static let streamType = SOCK_STREAM
    #endif

    deinit { stop() }
}
