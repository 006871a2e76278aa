#if canImport(Security)
import Foundation
import Security
import Synchronization

/// The Keychain on Apple platforms: access and refresh as two generic-password items,
/// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly` (seed 000 R7), so they are neither readable
/// while the device is locked nor included in backups.
///
/// A locked keychain (`errSecInteractionNotAllowed`) throws ``AuthError/storeLocked``, never
/// "no session", so an app launched in the background does not sign its user out.
public final class KeychainSessionStore: SessionStore {
    public let service: String
    private let lock = Mutex(())

    /// A store whose items have `kSecAttrService` = `service` (one per server, say).
    public init(service: String) {
        self.service = service
    }

    public func update<T: Sendable>(_ body: @Sendable (inout Session?) throws -> T) async throws -> T {
        try lock.withLock { _ in
            let before = StoredItems.session(access: try read(StoredItems.accessName), refresh: try read(StoredItems.refreshName))
            var session = before
            let result = try body(&session)
            if session != before { try write(session) }
            return result
        }
    }

    private func baseQuery(_ account: String) -> [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: account]
    }

    private func read(_ account: String) throws -> String? {
        var query = baseQuery(account)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        switch status {
        case errSecSuccess: return (result as? Data).map { String(decoding: $0, as: UTF8.self) }
        case errSecItemNotFound: return nil
        default: throw Self.error(status)
        }
    }

    private func write(_ session: Session?) throws {
        guard let session else {
            for account in [StoredItems.accessName, StoredItems.refreshName] {
                let status = SecItemDelete(baseQuery(account) as CFDictionary)
                guard status == errSecSuccess || status == errSecItemNotFound else { throw Self.error(status) }
            }
            return
        }
        let items = try StoredItems(session)
        try put(items.refresh, account: StoredItems.refreshName)
        try put(items.access, account: StoredItems.accessName)
    }

    private func put(_ value: String, account: String) throws {
        let attributes: [String: Any] = [
            kSecValueData as String: Data(value.utf8),
            kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
        ]
        var status = SecItemUpdate(baseQuery(account) as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            status = SecItemAdd(baseQuery(account).merging(attributes) { $1 } as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw Self.error(status) }
    }

    private static func error(_ status: OSStatus) -> AuthError {
        status == errSecInteractionNotAllowed ? .storeLocked : .storeFailure("Keychain error \(status)")
    }
}
#endif
