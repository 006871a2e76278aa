import LoginCore

extension AuthClient {
    /// Runs an effect of LoginCore's ``SecondFactorForm`` that needs the network and returns the
    /// event to feed back (issue 37).
    ///
    /// `verify` answers a new challenge of the session's first factor (any challenge takes a
    /// recovery code) and stores the `aal2` session; `assertPasskey` steps up with the platform's
    /// passkey. Other effects belong to the UI and return `nil`.
    public func perform(_ effect: SecondFactorEffect, authenticator: (any PlatformAuthenticator)? = nil) async -> SecondFactorEvent? {
        if case .track(let event) = effect { track(event) }
        do {
            switch effect {
            case .verify(let answer):
                let factorID = await currentSession?.secondFactors?.first?.id
                let challenge = try await mfa.challenge(factorID: factorID)
                let session = switch answer {
                case .authenticatorCode(let code): try await mfa.verify(factorID: factorID, challengeID: challenge.challengeID, answer: .code(code))
                case .recoveryCode(let code): try await mfa.verify(factorID: factorID, challengeID: challenge.challengeID, answer: .recoveryCode(code))
                }
                return .verifyResponse(.success(loginSuccess(session)))
            case .assertPasskey:
                guard let authenticator else { return .verifyResponse(.failure(.passkeyFailed)) }
                return .verifyResponse(.success(loginSuccess(try await mfa.verifyWithPasskey(using: authenticator))))
            case .focusCode, .announce, .shake, .storeSession, .navigateHome, .track:
                return nil
            }
        } catch {
            return .verifyResponse(.failure(Self.failure(error)))
        }
    }
}
