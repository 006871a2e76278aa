import Foundation
import GatehouseCore
import NIOConcurrencyHelpers

/// The development outbox every channel shares: each message appended to a file as one JSON
/// line, the file created owner-only (0600), one writer at a time.
package struct JSONLinesOutbox: Sendable {
    package let path: String
    private let lock = NIOLock()

    package init(path: String) {
        self.path = path
    }

    package func append(_ line: some Encodable) throws {
        var data = try JSONEncoder().encode(line)
        data.append(0x0A)
        try lock.withLock {
            if !FileManager.default.fileExists(atPath: path) {
                guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                    throw DeliveryError("cannot create the outbox \(path)")
                }
            }
            guard let handle = FileHandle(forWritingAtPath: path) else { throw DeliveryError("cannot open the outbox \(path)") }
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: data)
        }
    }
}
