import ArgumentParser
import Foundation

extension ParsableCommand {
    /// Runs a root command as a tool does: a bad argument or a failed operation prints one line,
    /// prefixed with the tool's name, and exits non-zero (64 for usage, 1 for failures).
    public static func runAsTool(named name: String, arguments: [String]? = nil) async -> Never {
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            Foundation.exit(0)
        } catch {
            let code = exitCode(for: error)
            guard code != .success else {
                print(fullMessage(for: error))
                Foundation.exit(code.rawValue)
            }
            // An ExitCode was thrown after its message was already printed.
            if !(error is ExitCode) {
                let message = message(for: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? "\(error)"
                FileHandle.standardError.write(Data("\(name): \(message)\n".utf8))
            }
            Foundation.exit(code.rawValue)
        }
    }
}

/// Where `gatehouse serve` runs: in `gatehouse-server` beside this binary when it is there.
public enum ServerBinary {
    /// `gatehouse-server` in the folder of the running executable, if it is there and runnable.
    public static var sibling: URL? {
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let candidate = me.deletingLastPathComponent().appendingPathComponent("gatehouse-server")
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }

    /// Replaces this process with `gatehouse-server serve ARGUMENTS`; returns only if that fails.
    public static func exec(_ binary: URL, arguments: [String]) {
        let argv = ([binary.path, "serve"] + arguments).map { strdup($0) } + [nil]
        execv(binary.path, argv)
        argv.forEach { free($0) }
    }
}
