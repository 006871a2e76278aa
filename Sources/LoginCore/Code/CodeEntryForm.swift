import Foundation

/// The code-entry step as a state machine, composed after ``PhoneSignInForm``.
///
/// A code submits itself once all its digits are in (typed, pasted or autofilled). A wrong
/// code clears the field and shows the tries left; an expired or burned code disables the field
/// until a resend. Resend waits for the server's `resend_after`, counted down on the host's clock.
public struct CodeEntryForm: Sendable {
    public let configuration: LoginConfiguration

    public init(configuration: LoginConfiguration = .standard) {
        self.configuration = configuration
    }

    var messages: MessageCatalogue { configuration.messages }

    /// The screen for a code just sent, and the effects that start it (focus, the clock).
    public func begin(_ sent: PhoneCodeSent) -> (CodeEntryState, [CodeEntryEffect]) {
        var state = CodeEntryState(sent: sent)
        state.resendCountdown = state.resendCooldown.map { _ in countdown(sent.resendAfter) }
        return (state, [.focusCode, .startClock])
    }

    /// Applies one event and returns the effects the host must run, in order.
    public func step(_ event: CodeEntryEvent, to state: inout CodeEntryState) -> [CodeEntryEffect] {
        let before = state
        let effects = apply(event, to: &state)
        state.isVerifyEnabled = !state.isVerifying && !state.isExpired && state.code.count == state.sent.codeLength
        return announcements(from: before, to: state) + effects
    }

    private func apply(_ event: CodeEntryEvent, to state: inout CodeEntryState) -> [CodeEntryEffect] {
        switch event {
        case .codeChanged(let text):
            guard state.isCodeEnabled else { return [] }
            let digits = String(text.filter(\.isASCIIDigit).prefix(state.sent.codeLength))
            let completes = digits.count == state.sent.codeLength && digits != state.code
            state.code = digits
            state.codeError = nil
            state.banner = nil
            return completes ? verify(&state) : []
        case .submit:
            guard state.isCodeEnabled else { return [] }
            guard state.code.count == state.sent.codeLength else {
                state.codeError = messages.text(.codeIncomplete, ["length": String(state.sent.codeLength)])
                return [.shake, .focusCode]
            }
            return verify(&state)
        case .verifyResponse(let result):
            return verified(result, in: &state)
        case .resend:
            guard state.isResendEnabled else { return [] }
            state.isResending = true
            state.banner = nil
            return [.announce(messages.text(.sendingCode)), .resend(verificationID: state.sent.verificationID)]
        case .resendResponse(let result):
            return resent(result, in: &state)
        case .changeNumber:
            guard !state.isVerifying else { return [] }
            return [.stopClock, .backToNumber]
        case .tick(let now):
            return tick(now, in: &state)
        }
    }

    private func verify(_ state: inout CodeEntryState) -> [CodeEntryEffect] {
        state.isVerifying = true
        return [.announce(messages.text(.verifyingCode)), .verify(verificationID: state.sent.verificationID, code: state.code)]
    }

    private func verified(_ result: Result<LoginSuccess, AuthFailure>, in state: inout CodeEntryState) -> [CodeEntryEffect] {
        guard state.isVerifying else { return [] }
        state.isVerifying = false
        switch result {
        case .success(let success):
            state.code = ""
            return [.stopClock, .storeSession(success), .navigateHome]
        case .failure(.codeIncorrect(let left)):
            state.code = ""
            state.attemptsLeft = left
            state.codeError = AuthFailure.codeIncorrect(attemptsLeft: left).message(in: messages)
            return [.shake, .focusCode]
        case .failure(let failure) where failure == .codeExpired || failure == .codeAttemptsExceeded:
            state.code = ""
            state.isExpired = true
            state.attemptsLeft = nil
            state.codeError = failure.message(in: messages)
            return [.shake]
        case .failure(.networkUnavailable), .failure(.timeout):
            state.banner = messages.text(.networkUnavailable)
            return []
        case .failure(let failure):
            state.banner = failure.message(in: messages)
            return []
        }
    }

    private func resent(_ result: Result<PhoneCodeSent, AuthFailure>, in state: inout CodeEntryState) -> [CodeEntryEffect] {
        guard state.isResending else { return [] }
        state.isResending = false
        switch result {
        case .success(let sent):
            let banner = state.banner
            state = CodeEntryState(sent: sent)
            state.banner = banner
            state.resendCountdown = state.resendCooldown.map { _ in countdown(sent.resendAfter) }
            return [.announce(messages.text(.codeResent)), .focusCode, .startClock]
        case .failure(.resendTooSoon(let seconds)):
            // Not an error: the resend window has not passed. Its countdown only.
            let wait = max(1, seconds)
            state.resendCooldown = .starting(seconds: wait)
            state.resendCountdown = countdown(wait)
            state.announcesResendReady = true
            return [.announce(messages.resendWaitText(seconds: wait)), .startClock]
        case .failure(.rateLimited(let seconds)):
            state.banner = messages.rateLimitedText(seconds: seconds)
            guard let seconds, seconds > 0 else { return [] }
            state.resendCooldown = .starting(seconds: seconds)
            state.resendCountdown = countdown(seconds)
            state.announcesResendReady = true
            return [.startClock]
        case .failure(.networkUnavailable), .failure(.timeout):
            state.banner = messages.text(.sendCodeOffline)
            return []
        case .failure(let failure):
            state.banner = failure.message(in: messages)
            return []
        }
    }

    private func tick(_ now: Date, in state: inout CodeEntryState) -> [CodeEntryEffect] {
        var ready: [CodeEntryEffect] = []
        if state.resendCooldown != nil {
            let remaining = LoginState.Cooldown.advance(&state.resendCooldown, to: now)
            state.resendCountdown = remaining.map(countdown)
            if remaining == nil, state.announcesResendReady {
                state.announcesResendReady = false
                state.banner = nil
                ready = [.announce(messages.retryReadyText(button: .resendCode))]
            }
        }
        if state.expiry != nil {
            if LoginState.Cooldown.advance(&state.expiry, to: now) == nil, !state.isExpired, !state.isVerifying {
                state.isExpired = true
                state.code = ""
                state.codeError = messages.text(.codeExpired)
            }
        }
        return (state.resendCooldown == nil && state.expiry == nil ? [.stopClock] : []) + ready
    }

    private func countdown(_ seconds: Int) -> String {
        messages.resendCountdownText(seconds: seconds)
    }

    private func announcements(from before: CodeEntryState, to after: CodeEntryState) -> [CodeEntryEffect] {
        [(before.codeError, after.codeError), (before.banner, after.banner)].compactMap { old, new in
            guard let new, new != old else { return nil }
            return .announce(new)
        }
    }
}
