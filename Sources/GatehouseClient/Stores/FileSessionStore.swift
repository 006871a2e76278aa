import Foundation
import GatehouseModel
import Synchronization

/// A JSON file readable only by its owner (0600 in a 0700 folder): the fallback where no
/// keyring is reachable. Writes are atomic, so a crash never leaves half a session.
public final class FileSessionStore: SessionStore {
    public let url: URL
    private let lock = Mutex(())

    public init(url: URL) {
        self.url = url
    }

    /// `$XDG_STATE_HOME/gatehouse/<name>.json`, or `~/.local/state/gatehouse/<name>.json`.
    public static func defaultURL(name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let state = environment["XDG_STATE_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/state")
        return state.appendingPathComponent("gatehouse").appendingPathComponent(name + ".json")
    }

    public func update<T: Sendable>(_ body: @Sendable (inout Session?) throws -> T) async throws -> T {
        try lock.withLock { _ in
            let before = try read()
            var session = before
            let result = try body(&session)
            if session != before { try write(session) }
            return result
        }
    }

    private func read() throws -> Session? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try JSONDecoder().decode(Session.self, from: Data(contentsOf: url))
        } catch {
            throw AuthError.storeFailure("cannot read \(url.path)")
        }
    }

    private func write(_ session: Session?) throws {
        let manager = FileManager.default
        guard let session else {
            if manager.fileExists(atPath: url.path) { try manager.removeItem(at: url) }
            return
        }
        let folder = url.deletingLastPathComponent()
        try manager.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // Owner-only from its first byte, and renamed over the old file: readers see the old
        // session or the new one.
        do {
            try OwnerOnlyFile.replace(atPath: url.path, contents: try JSONEncoder().encode(session))
        } catch {
            throw AuthError.storeFailure("cannot replace \(url.path)")
        }
    }
}
