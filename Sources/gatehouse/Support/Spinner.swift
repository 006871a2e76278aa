import Foundation

/// A braille spinner on stderr while something runs; a single line when stderr is not a terminal.
enum Spinner {
    static func run<T: Sendable>(_ label: String, _ work: () async -> T) async -> T {
        guard isatty(STDERR_FILENO) == 1 else {
            FileHandle.standardError.write(Data("\(label)\n".utf8))
            return await work()
        }
        let spinner = Task {
            let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
            var index = 0
            while !Task.isCancelled {
                FileHandle.standardError.write(Data("\r\(frames[index % frames.count]) \(label)".utf8))
                index += 1
                try? await Task.sleep(for: .milliseconds(80))
            }
            FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        }
        let result = await work()
        spinner.cancel()
        _ = await spinner.value
        return result
    }
}
