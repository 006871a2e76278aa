import Crypto
import Foundation
import GatehouseModel

/// The key that seals signing keys in the database: 32 random bytes, base64.
///
/// Operators give it as `GATEHOUSE_KEY_ENCRYPTION_KEY` or a file (`--key-encryption-key-file`);
/// every instance sharing a database needs the same one. An SQLite server without one keeps
/// working: it makes one in a file next to the database, readable only by its owner.
public enum KeyEncryptionKey {
    /// Parses the base64 form.
    public static func parse(_ text: String) throws(KeyEncryptionKeyError) -> SymmetricKey {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let data = Data(base64Encoded: trimmed) ?? Data(base64URLEncoded: trimmed), data.count == 32 else {
            throw .malformed
        }
        return SymmetricKey(data: data)
    }

    /// A new key in its base64 form, for `gatehouse keys new-kek`.
    public static func generate() -> String {
        SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }.base64EncodedString()
    }

    /// The key for a database: the configured one, or (SQLite only) the file beside it, made if missing.
    package static func resolve(_ configured: String?, location: DatabaseLocation) throws -> SymmetricKey {
        if let configured { return try parse(configured) }
        switch location {
        case .postgres: throw KeyEncryptionKeyError.missing
        case .sqlite(":memory:"): return SymmetricKey(size: .bits256)
        case .sqlite(let path):
            let file = path + ".kek"
            if let text = try? String(contentsOfFile: file, encoding: .utf8) { return try parse(text) }
            do {
                // Owner-only from the moment it exists (``OwnerOnlyFile``); a server that made it
                // first in the meantime wins, and its key is read below.
                try OwnerOnlyFile.create(atPath: file, contents: Data(generate().utf8))
            } catch let error as POSIXError where error.code == .EEXIST {}
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file])
            }
            return try parse(text)
        }
    }
}

/// Why the key-encryption key could not be used.
public enum KeyEncryptionKeyError: Error, Equatable, CustomStringConvertible {
    case missing, malformed, wrongKey

    public var description: String {
        switch self {
        case .missing:
            "a shared database needs GATEHOUSE_KEY_ENCRYPTION_KEY (32 random bytes, base64; `gatehouse keys new-kek` makes one)"
        case .malformed: "the key-encryption key must be 32 bytes, base64"
        case .wrongKey: "a signing key in the database was sealed with another key-encryption key"
        }
    }
}
