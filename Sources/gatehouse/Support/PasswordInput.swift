import ArgumentParser
import Foundation

/// Reads a password from a hidden terminal prompt or from standard input, never from argv.
enum PasswordInput {
    /// Reads a password.
    /// - Parameters:
    ///   - fromStandardInput: read all of stdin (one trailing newline removed) instead of prompting.
    ///   - confirm: prompt twice and require both entries to match.
    static func read(fromStandardInput: Bool, confirm: Bool, prompt label: String = "Password: ") throws -> String {
        if fromStandardInput {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            var text = String(decoding: data, as: UTF8.self)
            if text.hasSuffix("\n") { text.removeLast() }
            if text.hasSuffix("\r") { text.removeLast() }
            return text
        }
        guard isatty(STDIN_FILENO) == 1 else {
            throw ValidationError("no terminal to prompt for the password; pipe it with --password-stdin")
        }
        let password = try prompt(label)
        if confirm, try prompt("Confirm password: ") != password {
            throw ValidationError("the passwords do not match")
        }
        return password
    }

    /// Prints `label` and reads one line with echo turned off.
    static func prompt(_ label: String) throws -> String {
        // Echo goes off before the prompt shows: what is typed once it is on screen is never echoed or flushed.
        var original = termios()
        tcgetattr(STDIN_FILENO, &original)
        var hidden = original
        hidden.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &hidden)
        FileHandle.standardError.write(Data(label.utf8))
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        guard let line = readLine(strippingNewline: true) else { throw ValidationError("no password entered") }
        return line
    }
}
