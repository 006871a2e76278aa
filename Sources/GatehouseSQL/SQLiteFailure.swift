import GatehouseCore
import VaporCSQLite

/// An SQLite call that failed: its (extended) result code and SQLite's message.
public struct SQLiteFailure: Error, CustomStringConvertible {
    /// The extended result code, as `sqlite3_extended_errcode` gives it.
    public let code: Int32
    public let message: String

    public var description: String { "SQLite error \(code): \(message)" }
}

extension SQLiteFailure: StorageFailure {
    /// The disk is full or failing, the file cannot be opened, or it is held past the busy
    /// timeout: the primary result codes FULL, IOERR, CANTOPEN, BUSY and LOCKED.
    public var meansUnavailable: Bool {
        switch code & 0xFF {
        case SQLITE_FULL, SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_BUSY, SQLITE_LOCKED: true
        default: false
        }
    }
}
