import Foundation

/// The second step of signing in as a state machine (issue 37), driven by the web page, the
/// CLI and the SDK alike.
///
/// A 6-digit code submits itself once whole; a wrong one clears the field and says the tries
/// left; five end the challenge ("sign in again"). "Use a recovery code instead" switches the
/// field; "Use a passkey" asks the platform for an assertion. Analytics: `mfa_challenge_shown`,
/// `mfa_verified {method}`, `mfa_failed {error}`, `mfa_recovery_used`.
public struct SecondFactorForm: Sendable, AnalyticsReporting {
    public let configuration: LoginConfiguration
    /// Digits in an authenticator app's code.
    public static let codeLength = 6

    public init(configuration: LoginConfiguration = .standard) {
        self.configuration = configuration
    }

    var messages: MessageCatalogue { configuration.messages }

    /// The prompt above the field for the state's mode.
    public func prompt(for state: SecondFactorState) -> String {
        messages.text(state.mode == .authenticatorCode ? .mfaChallengePrompt : .mfaRecoveryPrompt)
    }

    public func step(_ event: SecondFactorEvent, to state: inout SecondFactorState) -> [SecondFactorEffect] {
        let before = state
        let effects = apply(event, to: &state)
        state.isVerifyEnabled = !state.isVerifying && !state.isEnded && isWhole(state)
        return [(before.codeError, state.codeError), (before.banner, state.banner)].compactMap { old, new in
            guard let new, new != old else { return nil }
            return .announce(new)
        } + effects
    }

    private func apply(_ event: SecondFactorEvent, to state: inout SecondFactorState) -> [SecondFactorEffect] {
        switch event {
        case .appeared:
            return [.focusCode]
        case .codeChanged(let text):
            guard !state.isEnded, !state.isVerifying else { return [] }
            let kept = state.mode == .authenticatorCode ? String(text.filter(\.isASCIIDigit).prefix(Self.codeLength)) : String(text.prefix(32))
            let completes = state.mode == .authenticatorCode && kept.count == Self.codeLength && kept != state.code
            state.code = kept
            state.codeError = nil
            state.banner = nil
            return completes ? verify(&state) : []
        case .submit:
            guard !state.isEnded, !state.isVerifying else { return [] }
            guard isWhole(state) else {
                state.codeError = prompt(for: state)
                return [.shake, .focusCode]
            }
            return verify(&state)
        case .useRecoveryCode, .useAuthenticatorCode:
            guard !state.isEnded, !state.isVerifying, state.offersRecoveryCodes || event == .useAuthenticatorCode else { return [] }
            state.mode = event == .useRecoveryCode ? .recoveryCode : .authenticatorCode
            state.code = ""
            state.codeError = nil
            return [.announce(prompt(for: state)), .focusCode]
        case .usePasskey:
            guard !state.isEnded, !state.isVerifying, state.offersPasskey else { return [] }
            state.isVerifying = true
            state.answeredWith = "passkey"
            state.banner = nil
            return [.assertPasskey]
        case .verifyResponse(let result):
            return verified(result, in: &state)
        }
    }

    private func isWhole(_ state: SecondFactorState) -> Bool {
        switch state.mode {
        case .authenticatorCode: state.code.count == Self.codeLength
        case .recoveryCode: state.code.filter { $0.isLetter || $0.isNumber }.count == 10
        }
    }

    private func verify(_ state: inout SecondFactorState) -> [SecondFactorEffect] {
        state.isVerifying = true
        state.answeredWith = state.mode == .authenticatorCode ? "totp" : "recovery_code"
        let answer: SecondFactorEffect.Answer = state.mode == .authenticatorCode ? .authenticatorCode(state.code) : .recoveryCode(state.code)
        return [.announce(messages.text(.verifyingCode)), .verify(answer)]
    }

    private func verified(_ result: Result<LoginSuccess, AuthFailure>, in state: inout SecondFactorState) -> [SecondFactorEffect] {
        guard state.isVerifying else { return [] }
        state.isVerifying = false
        state.answeredWith = nil
        switch result {
        case .success(let success):
            state.code = ""
            return [.storeSession(success), .navigateHome]
        case .failure(.codeIncorrect(let left)):
            state.code = ""
            state.attemptsLeft = left
            state.codeError = messages.text(.mfaWrongCode) + (left.map { " " + messages.text(.mfaTriesLeft, ["attempts": "\($0)"]) } ?? "")
            return [.shake, .focusCode]
        case .failure(.codeAttemptsExceeded), .failure(.codeExpired):
            state.code = ""
            state.isEnded = true
            state.attemptsLeft = nil
            state.banner = messages.text(.mfaChallengeEnded)
            return [.shake]
        case .failure(.passkeyCancelled):
            return []
        case .failure(.networkUnavailable), .failure(.timeout):
            state.banner = messages.text(.networkUnavailable)
            return []
        case .failure(let failure):
            state.banner = failure.message(in: messages)
            return []
        }
    }
}

extension SecondFactorForm {
    public static func track(_ event: AnalyticsEvent) -> SecondFactorEffect { .track(event) }

    public func analytics(
        for event: SecondFactorEvent, before: SecondFactorState, after: SecondFactorState, effects: [SecondFactorEffect]
    ) -> [AnalyticsEvent] {
        switch event {
        case .appeared: return [.mfaChallengeShown]
        case .verifyResponse(.success):
            guard before.isVerifying else { return [] }
            let method = before.answeredWith ?? "totp"
            return method == "recovery_code" ? [.mfaRecoveryUsed, .mfaVerified(method: method)] : [.mfaVerified(method: method)]
        case .verifyResponse(.failure(let failure)):
            return before.isVerifying && failure != .passkeyCancelled ? [.mfaFailed(failure)] : []
        case .codeChanged, .submit, .useRecoveryCode, .useAuthenticatorCode, .usePasskey:
            return []
        }
    }
}

extension AnalyticsEvent {
    // Issue 37's second step.
    public static let mfaChallengeShown = Self("mfa_challenge_shown")
    public static func mfaVerified(method: String) -> Self { Self("mfa_verified", ["method": .text(method)]) }
    public static func mfaFailed(_ failure: AuthFailure) -> Self { Self("mfa_failed", ["error": .text(failure.analyticsError)]) }
    public static let mfaRecoveryUsed = Self("mfa_recovery_used")
}
