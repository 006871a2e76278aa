import Foundation
import GatehouseCore
import GatehouseModel
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
            do {
                try OwnerOnlyFile.createIfMissing(atPath: path)
            } catch {
                throw DeliveryError("cannot create the outbox \(path)")
            }
            guard let handle = FileHandle(forWritingAtPath: path) else { throw DeliveryError("cannot open the outbox \(path)") }
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: data)
        }
    }
}
