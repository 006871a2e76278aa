import Foundation

/// Runs the built `gatehouse` binary as a user would.
struct CLIProcess {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The binary next to the test bundle, or `$GATEHOUSE_BIN`.
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["GATEHOUSE_BIN"] { return URL(fileURLWithPath: path) }
        return sibling("gatehouse")
    }

    /// Another product built beside the test bundle (`gatehouse-bench`).
    static func sibling(_ name: String) -> URL {
        let tests = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return tests.deletingLastPathComponent().appendingPathComponent(name)
    }

    /// Runs `gatehouse` (or `executable`) with `arguments` and `input` on stdin, in `directory`,
    /// and waits for it on a Dispatch thread: a test never blocks the cooperative pool, which the
    /// in-process servers of other tests need (this machine has two cores, so the pool has two
    /// threads).
    static func run(
        _ arguments: [String], input: String = "", environment: [String: String] = [:], in directory: URL, executable: URL = binary
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Swift.Result {
                    try runBlocking(arguments, input: input, environment: environment, in: directory, executable: executable)
                })
            }
        }
    }

    private static func runBlocking(
        _ arguments: [String], input: String, environment: [String: String], in directory: URL, executable: URL
    ) throws -> Result {
        let process = Process()
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self)
        )
    }

    /// A fresh temporary folder.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
