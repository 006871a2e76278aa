import Foundation

/// The resident memory of the real `gatehouse serve --demo`, idle after start and after logins.
enum IdleMemory {
    /// The `gatehouse` binary beside this benchmark's own (both are built by `scripts/bench.sh`).
    static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("gatehouse")
    }

    /// How long the server idles before each reading (issue 41: RSS at 35 s).
    static let idle: Duration = .seconds(35)

    /// Starts the server, reads its RSS after ``idle``, signs in `logins` times at once, idles, reads again.
    static func measure(logins: Int) async throws -> (afterStart: Double, afterLogins: Double) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A binary the linker has just written sits dirty in the page cache, and the kernel maps
        // fewer of its pages around each fault until they are written back: that server would
        // look about 6 MiB smaller than it does once the file is clean. Measure the steady state.
        sync()
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--demo", "--port", "0", "--database", folder.appendingPathComponent("demo.sqlite").path, "--log-level", "error"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer { process.terminate(); process.waitUntilExit() }
        let line = await Task.detached { String(decoding: output.fileHandleForReading.availableData, as: UTF8.self) }.value
        guard let range = line.range(of: #"http://[0-9.]+:[0-9]+"#, options: .regularExpression) else {
            throw LoadClient.Failure(description: "serve --demo did not say where it listens: \(line)")
        }
        try await Task.sleep(for: idle)
        let afterStart = try rss(of: process.processIdentifier)
        let demo = LoadClient(base: String(line[range]))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<logins { group.addTask { _ = try await demo.loginDemo() } }
            try await group.waitForAll()
        }
        try await demo.shutdown()
        try await Task.sleep(for: idle)
        return (afterStart, try rss(of: process.processIdentifier))
    }

    /// The burst of concurrent logins between the two readings.
    static let burst = 16

    /// Prints the RSS ``idle`` after start and ``idle`` after a ``burst`` of logins, against 40 MB.
    static func report() async throws {
        let memory = try await measure(logins: burst)
        let largest = max(memory.afterStart, memory.afterLogins) * 1.048576
        let seconds = idle.components.seconds
        print(String(format: "idle RSS of serve --demo %ld s after start: %.1f MiB, %ld s after %ld concurrent logins: %.1f MiB (the larger is %.1f MB; target < 40 MB: %.2f×)",
                     seconds, memory.afterStart, seconds, burst, memory.afterLogins, largest, largest / 40))
    }

    /// VmRSS of a process in MiB, from /proc.
    static func rss(of pid: Int32) throws -> Double {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kiB = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { throw LoadClient.Failure(description: "no VmRSS for \(pid)") }
        return kiB / 1024
    }
}
