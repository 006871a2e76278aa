#if os(Linux)
import Foundation
import Glibc

/// libsecret (the Secret Service client: GNOME Keyring, KWallet), loaded at run time.
///
/// Loading with `dlopen` keeps the SDK free of build-time system libraries: where
/// `libsecret-1.so.0` or a Secret Service is missing, ``shared`` is `nil` or calls fail, and
/// ``SessionStores`` falls back to a file. Only the non-variadic `…v_sync` functions are used.
final class LibSecret: @unchecked Sendable {
    private typealias HashTableNew = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> OpaquePointer?
    private typealias HashTableInsert = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32
    private typealias HashTableUnref = @convention(c) (OpaquePointer?) -> Void
    private typealias SchemaNew = @convention(c) (UnsafePointer<CChar>?, Int32, OpaquePointer?) -> OpaquePointer?
    private typealias Store = @convention(c) (
        OpaquePointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
        OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?
    ) -> Int32
    private typealias Lookup = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?) -> UnsafeMutablePointer<CChar>?
    private typealias Clear = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    private typealias Free = @convention(c) (UnsafeMutablePointer<CChar>?) -> Void
    private typealias ErrorFree = @convention(c) (OpaquePointer?) -> Void

    /// The library, or `nil` where it is not installed.
    static let shared = LibSecret()

    private let hashTableNew: HashTableNew
    private let hashTableInsert: HashTableInsert
    private let hashTableUnref: HashTableUnref
    private let strHash: UnsafeMutableRawPointer
    private let strEqual: UnsafeMutableRawPointer
    private let storeFunction: Store
    private let lookupFunction: Lookup
    private let clearFunction: Clear
    private let passwordFree: Free
    private let errorFree: ErrorFree
    private let schema: OpaquePointer
    private let lock = NSLock()

    /// The attribute names every Gatehouse item carries.
    static let attributeNames = ["service", "server", "item"]

    private init?() {
        guard let handle = dlopen("libsecret-1.so.0", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(handle, name).map { unsafeBitCast($0, to: T.self) }
        }
        guard let hashTableNew = symbol("g_hash_table_new", as: HashTableNew.self),
              let hashTableInsert = symbol("g_hash_table_insert", as: HashTableInsert.self),
              let hashTableUnref = symbol("g_hash_table_unref", as: HashTableUnref.self),
              let strHash = dlsym(handle, "g_str_hash"), let strEqual = dlsym(handle, "g_str_equal"),
              let schemaNew = symbol("secret_schema_newv", as: SchemaNew.self),
              let store = symbol("secret_password_storev_sync", as: Store.self),
              let lookup = symbol("secret_password_lookupv_sync", as: Lookup.self),
              let clear = symbol("secret_password_clearv_sync", as: Clear.self),
              let passwordFree = symbol("secret_password_free", as: Free.self),
              let errorFree = symbol("g_error_free", as: ErrorFree.self)
        else { return nil }
        (self.hashTableNew, self.hashTableInsert, self.hashTableUnref) = (hashTableNew, hashTableInsert, hashTableUnref)
        (self.strHash, self.strEqual) = (strHash, strEqual)
        (storeFunction, lookupFunction, clearFunction) = (store, lookup, clear)
        (self.passwordFree, self.errorFree) = (passwordFree, errorFree)
        // Every attribute is a string (SECRET_SCHEMA_ATTRIBUTE_STRING = 0, a NULL value in the table).
        let types = Dictionary(uniqueKeysWithValues: Self.attributeNames.map { ($0, Optional<String>.none) })
        guard let schema = Self.withTable(types, new: hashTableNew, insert: hashTableInsert, unref: hashTableUnref, strHash, strEqual, { table in
            schemaNew("dev.gatehouse.Session", 0, table)
        }) else { return nil }
        self.schema = schema
    }

    /// Stores `secret` under `attributes` in the default collection.
    func store(_ secret: String, label: String, attributes: [String: String]) throws {
        try call(attributes) { table, error in
            _ = storeFunction(schema, table, nil, label, secret, nil, error)
        }
    }

    /// The secret stored under `attributes`, or `nil`.
    func lookup(_ attributes: [String: String]) throws -> String? {
        var found: String?
        try call(attributes) { table, error in
            if let secret = lookupFunction(schema, table, nil, error) {
                found = String(cString: secret)
                passwordFree(secret)
            }
        }
        return found
    }

    /// Removes what is stored under `attributes`.
    func clear(_ attributes: [String: String]) throws {
        try call(attributes) { table, error in
            _ = clearFunction(schema, table, nil, error)
        }
    }

    /// Runs one libsecret call with `attributes` as a GHashTable, turning a GError into a Swift error.
    private func call(_ attributes: [String: String], _ body: (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>) -> Void) throws {
        lock.lock()
        defer { lock.unlock() }
        var error: OpaquePointer?
        Self.withTable(attributes, new: hashTableNew, insert: hashTableInsert, unref: hashTableUnref, strHash, strEqual) { table in
            body(table, &error)
        }
        guard let error else { return }
        // GError { GQuark domain; gint code; gchar *message }
        let message = UnsafeRawPointer(error).load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self).map { String(cString: $0) }
        errorFree(error)
        throw AuthError.storeFailure("Secret Service: \(message ?? "unknown error")")
    }

    private static func withTable<T>(
        _ entries: [String: String?], new: HashTableNew, insert: HashTableInsert, unref: HashTableUnref,
        _ strHash: UnsafeMutableRawPointer, _ strEqual: UnsafeMutableRawPointer, _ body: (OpaquePointer?) -> T
    ) -> T {
        let table = new(strHash, strEqual)
        var copies: [UnsafeMutablePointer<CChar>] = []
        for (key, value) in entries {
            let keyCopy = strdup(key)!
            let valueCopy = value.map { strdup($0)! }
            copies.append(keyCopy)
            valueCopy.map { copies.append($0) }
            _ = insert(table, UnsafeMutableRawPointer(keyCopy), valueCopy.map(UnsafeMutableRawPointer.init))
        }
        defer {
            unref(table)
            copies.forEach { free($0) }
        }
        return body(table)
    }
}
#endif
