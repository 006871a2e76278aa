import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files that hold secrets, readable and writable by their owner alone from the moment they exist.
///
/// `FileManager.createFile(atPath:contents:attributes:)` writes the contents to a file created
/// with the default mode (0644 under the usual umask), renames it into place, and only then
/// applies `posixPermissions`: for that moment anyone on the machine may open the file, and a
/// file once opened stays readable to whoever opened it, whatever its mode becomes. Seen by the
/// test suite as an outbox file read back 0644, and by `strace` as `openat(…, 0666)`, `write`,
/// `rename`, then `chmod(…, 0600)`. Here the `open(2)` that creates a file gives it mode 0600.
package enum OwnerOnlyFile {
    /// Creates the file at `path` with `contents`, owner-only.
    /// - Throws: `POSIXError` (`EEXIST` when something is already there).
    package static func create(atPath path: String, contents: Data = Data()) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.error() }
        defer { close(descriptor) }
        try writeAll(contents, to: descriptor)
    }

    /// Creates the file at `path`, empty and owner-only, unless something is there already.
    package static func createIfMissing(atPath path: String) throws {
        do {
            try create(atPath: path)
        } catch let error as POSIXError where error.code == .EEXIST {
            return
        }
    }

    /// Replaces the file at `path` with one holding `contents`, owner-only: written beside it
    /// under a new name, then renamed over it, so a reader sees the old file or the new one.
    package static func replace(atPath path: String, contents: Data) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let staging = (folder.isEmpty ? "." : folder) + "/.\(name).\(UUID().uuidString)"
        try create(atPath: staging, contents: contents)
        guard rename(staging, path) == 0 else {
            let failure = error()
            unlink(staging)
            throw failure
        }
    }

    /// Copies the file at `source` to a new owner-only file at `destination`, a mebibyte at a time.
    /// - Throws: `POSIXError` (`EEXIST` when something is already at `destination`).
    package static func copy(from source: String, to destination: String) throws {
        let reading = open(source, O_RDONLY | O_CLOEXEC)
        guard reading >= 0 else { throw error() }
        defer { close(reading) }
        let writing = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard writing >= 0 else { throw error() }
        defer { close(writing) }
        var chunk = Data(count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(reading, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw error()
            }
            if count == 0 { return }
            try writeAll(chunk.prefix(count), to: writing)
        }
    }

    private static func writeAll(_ contents: Data, to descriptor: Int32) throws {
        try contents.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw error()
                }
                offset += written
            }
        }
    }

    private static func error() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}
