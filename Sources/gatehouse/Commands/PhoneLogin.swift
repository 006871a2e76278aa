import ArgumentParser
import Foundation
import GatehouseClient
import LoginCore

extension Gatehouse.Login {
    /// `gatehouse login --phone`: LoginCore's phone and code-entry machines on a terminal.
    func runPhone(_ number: String) async throws {
        let app = try server.app
        let (client, _) = try server.client()
        let countries = try await RESTTransport(baseURL: try server.url).phoneCountries()
        var screen = TerminalPhoneScreen(configuration: app.login, client: client, interactive: isatty(STDIN_FILENO) == 1)
        let user = try await screen.run(number: number, country: country, countries: countries)
        server.rememberable.save()
        print("Signed in as \(user.name)\(user.email.isEmpty ? "" : " <\(user.email)>")")
    }
}

/// The phone screen and the code screen on a terminal, printing LoginCore's exact copy.
struct TerminalPhoneScreen {
    let phoneForm: PhoneSignInForm
    let codeForm: CodeEntryForm
    let client: AuthClient
    let interactive: Bool

    init(configuration: LoginConfiguration, client: AuthClient, interactive: Bool) {
        phoneForm = PhoneSignInForm(configuration: configuration)
        codeForm = CodeEntryForm(configuration: configuration)
        self.client = client
        self.interactive = interactive
    }

    mutating func run(number: String, country: String?, countries: [PhoneCountry]) async throws -> SignedInUser {
        guard !countries.isEmpty else {
            TerminalLoginScreen.printError("This server does not offer phone sign-in")
            throw ExitCode.failure
        }
        if let country, !countries.contains(where: { $0.code == country.uppercased() }) {
            throw ValidationError("--country \(country) is not one of \(countries.map(\.code).joined(separator: ", "))")
        }
        let verification = try await sendCode(number: number, country: country?.uppercased(), countries: countries)
        return try await enterCode(verification)
    }

    private func sendCode(number: String, country: String?, countries: [PhoneCountry]) async throws -> PhoneVerification {
        var state = phoneForm.initialState()
        _ = phoneForm.send(.countriesLoaded(countries, preferred: country), to: &state)
        _ = phoneForm.send(.numberChanged(number, caret: nil), to: &state)
        var verification: PhoneVerification?
        var pending = phoneForm.send(.submit, to: &state)
        while !pending.isEmpty {
            guard case .sendCode(let request) = pending.removeFirst() else { continue }
            let client = client
            let text = phoneForm.configuration.messages.text(.sendingCode)
            let result: Result<PhoneVerification, AuthError> = await Spinner.run("\(text)…") {
                do { return .success(try await client.sendPhoneCode(request)) } catch let error as AuthError {
                    return .failure(error)
                } catch { return .failure(.networkUnavailable) }
            }
            verification = try? result.get()
            pending += phoneForm.send(.sendResponse(result.map(\.sent).mapError(\.loginFailure)), to: &state)
        }
        guard let verification else {
            for message in [state.numberError, state.banner, state.retryCountdown].compactMap({ $0 }) {
                TerminalLoginScreen.printError(message)
            }
            throw ExitCode.failure
        }
        let sent = phoneForm.configuration.messages.text(.codeSentButton)
        FileHandle.standardError.write(Data("\(sent) \(verification.sent.phoneMasked)\n".utf8))
        return verification
    }

    private func enterCode(_ verification: PhoneVerification) async throws -> SignedInUser {
        var (state, _) = codeForm.begin(verification.sent)
        while true {
            let label = codeForm.configuration.messages.text(.codeLabel)
            let code = try TerminalLoginScreen.readLine(prompt: "\(label): ")
            var pending = codeForm.send(.codeChanged(code), to: &state)
            if !state.isVerifying { pending += codeForm.send(.submit, to: &state) }
            while !pending.isEmpty {
                let effect = pending.removeFirst()
                if case .storeSession(let success) = effect { return success.user }
                let client = client
                guard case .verify = effect else { continue }
                let text = codeForm.configuration.messages.text(.verifyingCode)
                if let event = await Spinner.run("\(text)…", { await client.perform(effect, for: verification) }) {
                    pending += codeForm.send(event, to: &state)
                }
            }
            for message in [state.codeError, state.banner].compactMap({ $0 }) { TerminalLoginScreen.printError(message) }
            guard interactive, !state.isExpired else { throw ExitCode.failure }
        }
    }
}
