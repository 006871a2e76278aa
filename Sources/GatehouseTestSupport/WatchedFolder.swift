import Foundation

#if os(Linux)
import Glibc

/// A new temporary folder, watched (inotify) for the files made in it, the writes to them and
/// every change of mode of anything in it; removed when released.
///
/// The kernel reports each `chmod` as an `IN_ATTRIB` event, so a file that shows none was
/// created with the mode it has, and each write as `IN_MODIFY`, so a file that shows none
/// under its own name had its contents before it had the name (`OwnerOnlyFileTests`).
public final class WatchedFolder {
    public let path: String
    private let watcher: Int32

    public init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("watched-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        watcher = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard watcher >= 0, inotify_add_watch(watcher, path, UInt32(IN_CREATE | IN_MOVED_TO | IN_ATTRIB | IN_MODIFY)) >= 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    deinit {
        close(watcher)
        try? FileManager.default.removeItem(atPath: path)
    }

    /// What happened in the folder since the last call.
    public struct Events: Sendable {
        /// Files created in the folder or renamed into it, in order.
        public var made: [String] = []
        /// Files whose mode (or other attributes) changed, in order.
        public var attributesChanged: [String] = []
        /// Files written to, once per write, in order.
        public var written: [String] = []
    }

    public func events() -> Events {
        var found = Events()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = read(watcher, &buffer, buffer.count)
            guard count > 0 else { return found }
            var offset = 0
            while offset < count {
                let (mask, length) = buffer.withUnsafeBytes { raw -> (UInt32, Int) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.mask, Int(event.len))
                }
                let start = offset + MemoryLayout<inotify_event>.size
                let name = String(decoding: buffer[start..<(start + length)].prefix { $0 != 0 }, as: UTF8.self)
                if mask & UInt32(IN_ATTRIB) != 0 {
                    found.attributesChanged.append(name)
                } else if mask & UInt32(IN_MODIFY) != 0 {
                    found.written.append(name)
                } else {
                    found.made.append(name)
                }
                offset = start + length
            }
        }
    }

    /// The permission bits of a file in the folder.
    public func mode(of name: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path + "/" + name)
        guard let mode = attributes[.posixPermissions] as? NSNumber else { throw POSIXError(.EIO) }
        return mode.intValue
    }
}
#endif
