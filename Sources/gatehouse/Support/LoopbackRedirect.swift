import Foundation
import Hummingbird
import Logging

/// Receives one OAuth redirect on `127.0.0.1` (RFC 8252 §7.3), the way `gh auth login` does:
/// a server on a random port answers the first request to `/callback` with a page that says
/// the terminal has it, hands over the query, and stops.
struct LoopbackRedirect {
    /// `http://127.0.0.1:<port>/callback`, once listening.
    let redirectURI: String
    private let answers: AsyncStream<[String: String]>
    private let server: Task<Void, any Error>

    /// Starts listening on a free loopback port.
    static func start() async throws -> LoopbackRedirect {
        let (answers, delivered) = AsyncStream.makeStream(of: [String: String].self)
        let (ports, bound) = AsyncStream.makeStream(of: Int.self)
        let router = Router()
        let served = ServedOnce()
        router.get("/callback") { request, _ -> Response in
            guard served.claim() else { return Response(status: .gone) }
            var query: [String: String] = [:]
            for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
            delivered.yield(query)
            let page = "<!doctype html><meta charset=utf-8><title>Gatehouse</title><p>You can close this window and return to the terminal.</p>"
            return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: page)))
        }
        var logger = Logger(label: "gatehouse.loopback")
        logger.logLevel = .critical
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in bound.yield(channel.localAddress?.port ?? 0) }, logger: logger
        )
        let server = Task { try await app.runService(gracefulShutdownSignals: []) }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            server.cancel()
            throw LoopbackRedirectError.couldNotListen
        }
        return LoopbackRedirect(redirectURI: "http://127.0.0.1:\(port)/callback", answers: answers, server: server)
    }

    /// The query of the first redirect, or `nil` after `timeout` seconds; the server stops either way.
    func next(timeout: TimeInterval) async -> [String: String]? {
        let answer = await first(timeout: timeout)
        // The browser's page is written before the server stops.
        try? await Task.sleep(for: .milliseconds(300))
        server.cancel()
        return answer
    }

    private func first(timeout: TimeInterval) async -> [String: String]? {
        await withTaskGroup(of: [String: String]?.self) { group in
            group.addTask {
                var iterator = answers.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(timeout))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}

enum LoopbackRedirectError: Error {
    case couldNotListen
}

/// True for the first caller only.
final class ServedOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false

    func claim() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if done { return false }
        done = true
        return true
    }
}
