import ArgumentParser
import Foundation
import GatehouseCore

/// Where the key-encryption key comes from: `--key-encryption-key-file`, else
/// `GATEHOUSE_KEY_ENCRYPTION_KEY`, else (SQLite only) a file beside the database.
public struct KeyEncryptionOptions: ParsableArguments {
    public init() {}

    @Option(help: "A file holding the key that seals signing keys (32 bytes, base64); default $GATEHOUSE_KEY_ENCRYPTION_KEY.")
    var keyEncryptionKeyFile: String?

    public func validate() throws {
        _ = try resolved()
    }

    /// The key's base64 text, or `nil` to let an SQLite database use its own file.
    public func resolved() throws -> String? {
        let text: String?
        if let keyEncryptionKeyFile {
            guard let contents = try? String(contentsOfFile: keyEncryptionKeyFile, encoding: .utf8) else {
                throw ValidationError("--key-encryption-key-file \(keyEncryptionKeyFile): no such readable file")
            }
            text = contents
        } else {
            text = ProcessInfo.processInfo.environment["GATEHOUSE_KEY_ENCRYPTION_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        }
        guard let text else { return nil }
        do {
            _ = try KeyEncryptionKey.parse(text)
        } catch {
            throw ValidationError("key-encryption key: \(error)")
        }
        return text
    }
}
