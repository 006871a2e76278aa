import ArgumentParser
import Foundation
import GatehouseClient
import LoginCore

extension Gatehouse.Login {
    /// `gatehouse login --email-code`: a code mailed to the address, typed here.
    func runEmailCode() async throws {
        let app = try server.app
        let (client, _) = try server.client()
        var screen = TerminalEmailCodeScreen(
            form: EmailCodeForm(configuration: app.login, options: app.accounts), client: client, interactive: isatty(STDIN_FILENO) == 1
        )
        let user = try await screen.run(email: email)
        server.rememberable.save()
        print("Signed in as \(user.name.isEmpty ? user.email : "\(user.name) <\(user.email)>")")
    }
}

/// The email-code screens on a terminal, printing LoginCore's exact copy: the address (asked
/// for when missing), then the code, retyped while tries are left.
struct TerminalEmailCodeScreen {
    let form: EmailCodeForm
    let client: AuthClient
    let interactive: Bool
    var state = EmailCodeState()

    mutating func run(email: String?) async throws -> SignedInUser {
        _ = form.send(.emailChanged(try email ?? TerminalLoginScreen.readLine(prompt: "Email: ")), to: &state)
        try await drive(form.send(.requestCode, to: &state), spinner: .sendingCode)
        guard state.sentTo != nil else {
            for message in [state.emailError, state.banner].compactMap({ $0 }) { TerminalLoginScreen.printError(message) }
            throw ExitCode.failure
        }
        if let notice = state.notice { FileHandle.standardError.write(Data("\(notice)\n".utf8)) }
        while true {
            let label = form.configuration.messages.text(.codeLabel)
            var pending = form.send(.codeChanged(try TerminalLoginScreen.readLine(prompt: "\(label): ")), to: &state)
            if !state.isVerifying { pending += form.send(.submitCode, to: &state) }
            if let user = try await drive(pending, spinner: .verifyingCode) { return user }
            for message in [state.codeError, state.banner].compactMap({ $0 }) { TerminalLoginScreen.printError(message) }
            guard interactive, !state.isExpired else { throw ExitCode.failure }
        }
    }

    /// Runs the effects, feeding the SDK's answers back; the user once a session is stored.
    @discardableResult
    private mutating func drive(_ effects: [EmailCodeEffect], spinner: MessageKey) async throws -> SignedInUser? {
        var pending = effects
        while !pending.isEmpty {
            let effect = pending.removeFirst()
            switch effect {
            case .storeSession(let success):
                return success.user
            case .requestCode, .verifyCode:
                let client = client
                let text = form.configuration.messages.text(spinner)
                if let event = await Spinner.run("\(text)…", { await client.perform(effect) }) {
                    pending += form.send(event, to: &state)
                }
            case .navigateHome, .focus, .announce:
                continue
            }
        }
        return nil
    }
}
