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
    /// Creates the file at `path` with `contents`, owner-only and whole: anyone who finds the
    /// file finds every byte of it.
    ///
    /// The contents are written under a name of their own beside it and hard-linked to `path`,
    /// which fails if something is there already: of two processes making the same file, one
    /// wins and the other reads the winner's contents, never a file opened but not yet written.
    /// - Throws: `POSIXError` (`EEXIST` when something is already there).
    package static func create(atPath path: String, contents: Data = Data()) throws {
        guard !contents.isEmpty else {
            close(try openNew(path))
            return
        }
        let staging = stagingPath(beside: path)
        try writeNew(contents, at: staging)
        defer { unlink(staging) }
        guard link(staging, path) == 0 else { throw error() }
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
        let staging = stagingPath(beside: path)
        try writeNew(contents, at: staging)
        guard rename(staging, path) == 0 else {
            let failure = error()
            unlink(staging)
            throw failure
        }
    }

    /// Copies the file at `source` to a new owner-only file at `destination`, a mebibyte at a
    /// time; a copy that fails part way is removed.
    /// - Throws: `POSIXError` (`EEXIST` when something is already at `destination`).
    package static func copy(from source: String, to destination: String) throws {
        let reading = open(source, O_RDONLY | O_CLOEXEC)
        guard reading >= 0 else { throw error() }
        defer { close(reading) }
        let writing = try openNew(destination)
        defer { close(writing) }
        var chunk = Data(count: 1 << 20)
        do {
            while true {
                let count = chunk.withUnsafeMutableBytes { read(reading, $0.baseAddress!, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw error()
                }
                if count == 0 { return }
                try writeAll(chunk.prefix(count), to: writing)
            }
        } catch {
            unlink(destination)
            throw error
        }
    }

    /// A new file at `path`, mode 0600 from the `open(2)` that makes it, open for writing.
    private static func openNew(_ path: String) throws -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw error() }
        return descriptor
    }

    /// A hidden name beside `path` that no other call chooses.
    private static func stagingPath(beside path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        return (folder.isEmpty ? "." : folder) + "/.\(name).\(UUID().uuidString)"
    }

    /// Writes `contents` to a new owner-only file at `path`; a failed write removes it again.
    private static func writeNew(_ contents: Data, at path: String) throws {
        let descriptor = try openNew(path)
        defer { close(descriptor) }
        do {
            try writeAll(contents, to: descriptor)
        } catch {
            unlink(path)
            throw error
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
