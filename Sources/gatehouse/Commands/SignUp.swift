import ArgumentParser
import Foundation
import GatehouseClient
import LoginCore

extension Gatehouse {
    /// `gatehouse signup`: the sign-up screen on a terminal, driven by LoginCore's ``SignUpForm``
    /// and the SDK; then, with `--code`, the mailed code verifies the address and signs in.
    struct SignUp: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "signup", abstract: "Create an account; the server mails a link and a code to verify it."
        )

        @OptionGroup var server: ServerOptions
        @Option(help: "Your name; prompted for when missing.") var name: String?
        @Option(help: "The email; prompted for when missing.") var email: String?
        @Flag(help: "Read the password from standard input instead of prompting (twice).") var passwordStdin = false
        @Flag(help: "After signing up, ask for the mailed 6-digit code and sign in with it.") var code = false

        func validate() throws {
            if passwordStdin, email == nil || name == nil { throw ValidationError("--password-stdin needs --email and --name") }
            if passwordStdin, code { throw ValidationError("--code reads the code from the terminal; it cannot follow --password-stdin") }
        }

        func run() async throws {
            let app = try server.app
            let form = SignUpForm(configuration: app.login, options: app.accounts)
            let (client, _) = try server.client()
            var state = SignUpState()
            _ = form.send(.nameChanged(try name ?? TerminalLoginScreen.readLine(prompt: "Name: ")), to: &state)
            _ = form.send(.emailChanged(try email ?? TerminalLoginScreen.readLine(prompt: "Email: ")), to: &state)
            let password = try PasswordInput.read(fromStandardInput: passwordStdin, confirm: !passwordStdin, prompt: "Password: ")
            _ = form.send(.passwordChanged(password), to: &state)
            var pending = form.send(.submit, to: &state)
            while !pending.isEmpty {
                let effect = pending.removeFirst()
                if case .signUp = effect, let event = await Spinner.run("Creating your account…", { await client.perform(effect) }) {
                    pending += form.send(event, to: &state)
                }
            }
            for error in [state.nameError, state.emailError, state.passwordError, state.banner].compactMap({ $0 }) {
                TerminalLoginScreen.printError(error)
            }
            guard let address = state.sentTo else { throw ExitCode.failure }
            print(app.login.messages.text(.verificationSent, ["email": address]))
            guard code else { return }
            let typed = try TerminalLoginScreen.readLine(prompt: "\(app.login.messages.text(.codeLabel)): ")
            do {
                let session = try await client.verifyEmail(.code(email: address, code: typed.trimmingCharacters(in: .whitespaces)))
                server.rememberable.save()
                print("Signed in as \(session.user.name) <\(session.user.email)>")
            } catch {
                TerminalLoginScreen.printError(((error as? AuthError)?.loginFailure ?? .serverError(status: 0)).message(in: app.login.messages))
                throw ExitCode.failure
            }
        }
    }
}
