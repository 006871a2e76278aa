#if os(Linux)
import Foundation
import Synchronization

/// The desktop keyring (Secret Service over D-Bus) on Linux: access and refresh as two items.
///
/// Items carry the attributes `service=gatehouse`, `server=<base URL>` and `item=access|refresh`,
/// so `secret-tool search service gatehouse` lists them and one keyring can hold sessions for
/// several servers.
public final class SecretServiceSessionStore: SessionStore {
    public let server: String
    private let library: LibSecret
    private let lock = Mutex(())

    /// A store for sessions with `server`; `nil` where libsecret is not installed.
    public init?(server: String) {
        guard let library = LibSecret.shared else { return nil }
        self.server = server
        self.library = library
    }

    /// Whether a Secret Service answers on this session's D-Bus.
    public func isReachable() -> Bool {
        do {
            _ = try library.lookup(attributes(for: "probe"))
            return true
        } catch {
            return false
        }
    }

    public func update<T: Sendable>(_ body: @Sendable (inout Session?) throws -> T) async throws -> T {
        try lock.withLock { _ in
            let before = StoredItems.session(
                access: try library.lookup(attributes(for: StoredItems.accessName)),
                refresh: try library.lookup(attributes(for: StoredItems.refreshName))
            )
            var session = before
            let result = try body(&session)
            if session != before { try write(session) }
            return result
        }
    }

    private func write(_ session: Session?) throws {
        guard let session else {
            try library.clear(attributes(for: StoredItems.accessName))
            try library.clear(attributes(for: StoredItems.refreshName))
            return
        }
        let items = try StoredItems(session)
        try library.store(items.refresh, label: "Gatehouse refresh token (\(server))", attributes: attributes(for: StoredItems.refreshName))
        try library.store(items.access, label: "Gatehouse access token (\(server))", attributes: attributes(for: StoredItems.accessName))
    }

    private func attributes(for item: String) -> [String: String] {
        ["service": "gatehouse", "server": server, "item": item]
    }
}
#endif
