import Foundation

/// The development outbox (`JSONLinesOutbox`) as a test reads it while the server may still be
/// appending to it.
///
/// A reader can see a line the server is halfway through writing (a mail's line spans pages,
/// and reading a file does not wait for a write to it), so only lines with their newline count.
public enum OutboxFile {
    /// The outbox's complete lines; none when it does not exist yet.
    public static func lines(_ path: String) -> [Substring] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), let end = text.lastIndex(of: "\n") else { return [] }
        return text[..<end].split(separator: "\n")
    }

    /// The outbox's complete lines once there are at least `count`, waiting up to 10 s.
    /// - Throws: `CancellationError` when fewer arrived.
    public static func lines(_ path: String, atLeast count: Int) async throws -> [Substring] {
        for _ in 0..<400 {
            let lines = lines(path)
            if lines.count >= count { return lines }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw CancellationError()
    }
}
