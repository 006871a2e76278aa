import Foundation
import Synchronization

/// A command run on a pseudo-terminal through util-linux `script`, driven like a person would:
/// wait for a prompt, then type.
final class TerminalSession: Sendable {
    let process = Process()
    private let input = Pipe()
    private let output = Mutex("")
    /// How much of the screen earlier ``expect(_:)`` calls consumed.
    private let cursor = Mutex(0)

    /// Starts `arguments` on a new pty, with `environment` added to this process's.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        let command = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qfec", command, "/dev/null"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdout = Pipe()
        process.standardInput = input
        process.standardOutput = stdout
        process.standardError = stdout
        stdout.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.output.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
    }

    /// Everything the terminal showed so far.
    var screen: String { output.withLock { $0 } }

    /// Waits until `text` appears after what earlier calls matched, and consumes it, as
    /// pexpect does; false after 30 s.
    @discardableResult
    func expect(_ text: String) async -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let screen = screen
            let start = cursor.withLock { $0 }
            if screen.count > start, let range = screen.dropFirst(start).range(of: text) {
                cursor.withLock { $0 = screen.distance(from: screen.startIndex, to: range.upperBound) }
                return true
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Types a line.
    func type(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\r").utf8))
    }

    /// Waits for the command to end, without blocking a thread, and returns its status.
    func finish() async -> Int32 {
        while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
        try? await Task.sleep(for: .milliseconds(50))
        return process.terminationStatus
    }
}
