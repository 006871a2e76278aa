import ArgumentParser
import Foundation
import GatehouseClient
import LoginCore

/// The second step of `gatehouse login` (issue 37), driven by LoginCore's ``SecondFactorForm``:
/// asks for the authenticator app's code (or, after typing `r`, a recovery code) until the
/// session reaches `aal2` or the challenge ends.
struct TerminalSecondFactor {
    let client: AuthClient
    let form: SecondFactorForm
    var state = SecondFactorState(offersRecoveryCodes: true, offersPasskey: false)

    init(client: AuthClient, configuration: LoginConfiguration) {
        self.client = client
        form = SecondFactorForm(configuration: configuration)
    }

    mutating func run(factorID: String) async throws {
        // Five wrong answers end it, and with it this login: the next try signs in again.
        let challenge = try await client.mfa.challenge(factorID: factorID)
        var pending = form.send(.appeared, to: &state)
        while true {
            while !pending.isEmpty {
                let effect = pending.removeFirst()
                switch effect {
                case .verify(let answer):
                    let client = client, current = challenge.challengeID
                    let result = await Spinner.run("Verifying…") { await Self.verify(answer, challengeID: current, client: client) }
                    pending += form.send(.verifyResponse(result), to: &state)
                case .storeSession, .navigateHome:
                    return
                case .focusCode, .announce, .shake, .assertPasskey, .track:
                    continue
                }
            }
            if let error = state.codeError { TerminalLoginScreen.printError(error) }
            if let banner = state.banner { TerminalLoginScreen.printError(banner) }
            if state.isEnded { throw ExitCode.failure }
            let prompt = form.prompt(for: state) + (state.mode == .authenticatorCode ? " (r: a recovery code instead): " : ": ")
            let line = try TerminalLoginScreen.readLine(prompt: prompt).trimmingCharacters(in: .whitespaces)
            if state.mode == .authenticatorCode, line.lowercased() == "r" {
                pending = form.send(.useRecoveryCode, to: &state)
                continue
            }
            pending = form.send(.codeChanged(line), to: &state)
            if !pending.contains(where: { if case .verify = $0 { true } else { false } }) { pending += form.send(.submit, to: &state) }
        }
    }

    /// Sends the answer; a recovery code answers any challenge of the account.
    private static func verify(_ answer: SecondFactorEffect.Answer, challengeID: String, client: AuthClient) async -> Result<LoginSuccess, AuthFailure> {
        do {
            let session = switch answer {
            case .authenticatorCode(let code): try await client.mfa.verify(challengeID: challengeID, answer: .code(code))
            case .recoveryCode(let code): try await client.mfa.verify(challengeID: challengeID, answer: .recoveryCode(code))
            }
            return .success(LoginSuccess(user: session.user, tokens: SessionTokens(
                accessToken: session.accessToken, refreshToken: session.refreshToken, expiresIn: 0
            )))
        } catch let error as AuthError {
            return .failure(error.loginFailure)
        } catch {
            return .failure(.networkUnavailable)
        }
    }
}
