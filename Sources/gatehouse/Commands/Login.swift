import ArgumentParser
import Foundation
import GatehouseClient
import LoginCore

extension Gatehouse {
    /// `gatehouse login`: the terminal login screen, driven by LoginCore and the SDK.
    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sign in and keep the session in the keyring.")

        @OptionGroup var server: ServerOptions
        @Option(help: "The email; prompted for when missing.") var email: String?
        @Flag(help: "Read the password from standard input instead of prompting.") var passwordStdin = false
        @Option(help: "Sign in with a one-time code sent by SMS to this mobile number (seed 004).") var phone: String?
        @Option(help: "The number's region (ISO 3166, such as IN); the server's default when missing.") var country: String?
        @Flag(help: "Sign in with Google in a browser, which comes back to this terminal on 127.0.0.1.") var google = false
        @Option(help: "Sign in with this provider (github, microsoft, or an id from the app file's providers) in a browser, like --google.")
        var provider: String?
        @Flag(help: "With --google or --provider: print the address to open instead of opening a browser.") var noBrowser = false
        @Flag(help: "Sign in with a code mailed to the email (the app lists emailCode).") var emailCode = false

        /// The provider `--google` or `--provider` names.
        var providerID: SignInMethods.Method? {
            google ? .google : provider.map(SignInMethods.Method.init(rawValue:))
        }

        func validate() throws {
            if passwordStdin, email == nil { throw ValidationError("--password-stdin needs --email") }
            if phone != nil, email != nil || passwordStdin { throw ValidationError("--phone signs in without an email or a password") }
            if country != nil, phone == nil { throw ValidationError("--country needs --phone") }
            if google, provider != nil { throw ValidationError("give --google or --provider, not both") }
            if let id = providerID, !id.isWellFormed || !id.isProvider {
                throw ValidationError("--provider must be a provider's id (google, github, microsoft, or one from the app file), not \(id.rawValue.prefix(40))")
            }
            if providerID != nil, email != nil || passwordStdin || phone != nil {
                throw ValidationError("--\(google ? "google" : "provider") signs in without an email, a password or a phone")
            }
            if noBrowser, providerID == nil { throw ValidationError("--no-browser goes with --google or --provider") }
            if emailCode, passwordStdin || phone != nil || providerID != nil {
                throw ValidationError("--email-code signs in with the email and a mailed code only")
            }
        }

        func run() async throws {
            if let phone { return try await runPhone(phone) }
            if let providerID { return try await runProvider(providerID) }
            if emailCode { return try await runEmailCode() }
            let form = LoginForm(configuration: try server.app.login)
            let (client, _) = try server.client()
            var screen = TerminalLoginScreen(form: form, client: client, interactive: !passwordStdin && isatty(STDIN_FILENO) == 1)
            let user = try await screen.run(email: email, passwordFromStdin: passwordStdin)
            // An account with a second factor: its code (or a recovery code) before the login counts.
            if let session = await client.currentSession, session.needsSecondFactor, let factor = session.secondFactors?.first {
                var second = TerminalSecondFactor(client: client, configuration: form.configuration)
                do {
                    try await second.run(factorID: factor.id)
                } catch {
                    try? await client.signOut(scope: .local)
                    throw error
                }
            }
            server.rememberable.save()
            print("Signed in as \(user.name) <\(user.email)>")
        }
    }
}

/// The login form on a terminal: each field is validated as it is left, errors are printed
/// with LoginCore's exact copy, and a wrong password may be retyped twice.
struct TerminalLoginScreen {
    let form: LoginForm
    let client: AuthClient
    let interactive: Bool
    var state: LoginState

    init(form: LoginForm, client: AuthClient, interactive: Bool) {
        self.form = form
        self.client = client
        self.interactive = interactive
        state = form.initialState()
    }

    mutating func run(email: String?, passwordFromStdin: Bool) async throws -> SignedInUser {
        try field(.email, retry: interactive && email == nil) { try email ?? Self.readLine(prompt: "Email: ") }
        for _ in 0..<3 {
            try field(.password, retry: interactive) {
                try PasswordInput.read(fromStandardInput: passwordFromStdin, confirm: false, prompt: "Password: ")
            }
            if let user = try await submit() { return user }
            guard interactive, state.password.isEmpty else { break }
        }
        throw ExitCode.failure
    }

    /// Asks for a field until LoginCore accepts it; without `retry`, one bad value fails.
    private mutating func field(_ field: LoginField, retry: Bool, _ read: () throws -> String) throws {
        while true {
            let value = try read()
            _ = form.send(field == .email ? .emailChanged(value) : .passwordChanged(value), to: &state)
            _ = form.send(field == .email ? .emailBlurred : .passwordBlurred, to: &state)
            guard let error = state.error(for: field) else { return }
            Self.printError(error)
            if !retry { throw ExitCode.failure }
        }
    }

    /// Submits; the signed-in user, or `nil` after printing why not.
    private mutating func submit() async throws -> SignedInUser? {
        var pending = form.send(.submit, to: &state)
        while !pending.isEmpty {
            let effect = pending.removeFirst()
            switch effect {
            case .authenticate:
                let client = client
                if let event = await Spinner.run("Signing in…", { await client.perform(effect) }) {
                    pending += form.send(event, to: &state)
                }
            case .storeSession(let success):
                return success.user
            default:
                continue
            }
        }
        if let banner = state.banner { Self.printError(banner) }
        if let wait = state.retryCountdown {
            // Throttled (429): say how long to wait and stop, rather than ask again.
            Self.printError(wait)
            throw ExitCode.failure
        }
        return nil
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data("✗ \(message)\n".utf8))
    }

    static func readLine(prompt: String) throws -> String {
        FileHandle.standardError.write(Data(prompt.utf8))
        guard let line = Swift.readLine(strippingNewline: true) else { throw ValidationError("no email entered") }
        return line
    }
}
