import Foundation

/// Seed 004's phone screen as a state machine: a number typed and formatted, a code requested.
///
/// It composes with ``CodeEntryForm``: when a code is sent it returns
/// ``PhoneSignInEffect/showCodeEntry(_:)`` and the host moves to code entry. Like
/// ``LoginForm`` it reads no clock and does no IO. The country list comes from the server
/// (``PhoneSignInEvent/countriesLoaded(_:preferred:)``); formatting and the completeness check
/// use it, and the server stays the authority on validity.
public struct PhoneSignInForm: Sendable {
    public let configuration: LoginConfiguration

    public init(configuration: LoginConfiguration = .standard) {
        self.configuration = configuration
    }

    var messages: MessageCatalogue { configuration.messages }

    /// A fresh screen.
    public func initialState(mode: PhoneSignInState.Mode = .signIn) -> PhoneSignInState {
        PhoneSignInState(mode: mode)
    }

    /// Applies one event and returns the effects the host must run, in order.
    public func step(_ event: PhoneSignInEvent, to state: inout PhoneSignInState) -> [PhoneSignInEffect] {
        let before = state
        let effects = apply(event, to: &state)
        state.isSendEnabled = sendEnabled(state)
        return announcements(from: before, to: state) + effects
    }

    private func apply(_ event: PhoneSignInEvent, to state: inout PhoneSignInState) -> [PhoneSignInEffect] {
        if !state.areInputsEnabled {
            switch event {
            case .sendResponse, .tick, .editNumber: break
            default: return []
            }
        }
        switch event {
        case .appeared: return []
        case .countriesLoaded(let countries, let preferred):
            state.countries = countries
            select(countries.first { $0.code == preferred } ?? state.country.flatMap { c in countries.first { $0.code == c.code } } ?? countries.first, in: &state)
        case .countrySelected(let code):
            guard let country = state.countries.first(where: { $0.code == code }) else { return [] }
            select(country, in: &state)
        case .numberChanged(let text, let caret):
            guard let country = state.country else { return [] }
            let edit = PhoneNumberInput.edit(text, caret: caret, country: country)
            state.number = edit.text
            state.digits = edit.digits
            state.caret = edit.caret
            state.isNumberComplete = PhoneNumberInput.isComplete(edit.digits, country: country)
            state.numberError = nil
            clearRequestMessages(&state)
        case .nameChanged(let name):
            state.name = name
            if state.nameError != nil, !trimmedName(state).isEmpty { state.nameError = nil }
            clearRequestMessages(&state)
        case .submit:
            return submit(&state)
        case .sendResponse(let result):
            return respond(to: result, in: &state)
        case .editNumber:
            state.isSent = false
            return [.focus(.number)]
        case .switchMode:
            return [.openOtherMode(digits: state.digits, country: state.country?.code)]
        case .tick(let now):
            return tick(now, in: &state)
        }
        return []
    }

    private func select(_ country: PhoneCountry?, in state: inout PhoneSignInState) {
        state.country = country
        guard let country else { return }
        let edit = PhoneNumberInput.edit(state.digits, country: country)
        state.number = edit.text
        state.digits = edit.digits
        state.caret = edit.caret
        state.isNumberComplete = PhoneNumberInput.isComplete(edit.digits, country: country)
    }

    private func clearRequestMessages(_ state: inout PhoneSignInState) {
        state.suggestsRegistration = false
        if state.cooldown == nil { state.banner = nil }
    }

    private func submit(_ state: inout PhoneSignInState) -> [PhoneSignInEffect] {
        guard state.cooldown == nil, let country = state.country else { return [] }
        if state.mode == .register, trimmedName(state).isEmpty {
            state.nameError = messages.text(.nameRequired)
            return [.focus(.name)]
        }
        guard state.isNumberComplete else {
            state.numberError = messages.text(.phoneInvalid, ["digits": String(country.digits)])
            return [.shake, .focus(.number)]
        }
        state.isSending = true
        state.banner = nil
        let request = PhoneCodeRequest(
            phone: PhoneNumberInput.e164(state.digits, country: country), country: country.code,
            name: state.mode == .register ? trimmedName(state) : nil
        )
        return [.announce(messages.text(.sendingCode)), .sendCode(request)]
    }

    private func respond(to result: Result<PhoneCodeSent, AuthFailure>, in state: inout PhoneSignInState) -> [PhoneSignInEffect] {
        guard state.isSending else { return [] }
        state.isSending = false
        switch result {
        case .success(let sent):
            state.isSent = true
            return [.announce(messages.text(.codeSent)), .showCodeEntry(sent)]
        case .failure(.invalidPhone):
            state.numberError = messages.text(.phoneInvalid, ["digits": String(state.country?.digits ?? 0)])
            return [.shake, .focus(.number)]
        case .failure(.accountNotFound):
            state.banner = messages.text(.accountNotFound)
            state.suggestsRegistration = true
            return []
        case .failure(.networkUnavailable), .failure(.timeout):
            state.banner = messages.text(.sendCodeOffline)
            return [.shake]
        case .failure(.resendTooSoon(let seconds)):
            // Not an error: a code went out moments ago. The resend countdown only: no banner,
            // no shake, no red border; the announcement names the real wait.
            let wait = max(1, seconds)
            state.waitsForResend = true
            state.cooldown = .starting(seconds: wait)
            state.retryCountdown = messages.resendCountdownText(seconds: wait)
            return [.announce(messages.resendWaitText(seconds: wait)), .startClock]
        case .failure(.rateLimited(let seconds)):
            state.banner = messages.rateLimitedText(seconds: seconds)
            guard let seconds, seconds > 0 else { return [] }
            // One wait, shown once: the sentence (announced, in words) then counts down in place
            // ("Try again in 14:59."), with no second countdown beside it (issue 36, point 9).
            state.waitsForResend = false
            state.cooldown = .starting(seconds: seconds)
            state.retryCountdown = nil
            return [.startClock]
        case .failure(let failure):
            state.banner = failure.message(in: messages)
            return []
        }
    }

    private func tick(_ now: Date, in state: inout PhoneSignInState) -> [PhoneSignInEffect] {
        guard state.cooldown != nil else { return [] }
        guard let remaining = LoginState.Cooldown.advance(&state.cooldown, to: now) else {
            state.retryCountdown = nil
            state.waitsForResend = false
            state.banner = nil
            return [.stopClock, .announce(messages.retryReadyText(button: .sendCode))]
        }
        if state.waitsForResend {
            state.retryCountdown = messages.resendCountdownText(seconds: remaining)
        } else {
            // Under an hour as m:ss, the seed's countdown timer; longer waits stay in words.
            state.banner = remaining < 3600
                ? messages.text(.rateLimited, ["time": MessageCatalogue.clock(remaining)]) : messages.rateLimitedText(seconds: remaining)
        }
        return []
    }

    private func trimmedName(_ state: PhoneSignInState) -> String {
        state.name.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func sendEnabled(_ state: PhoneSignInState) -> Bool {
        guard state.areInputsEnabled, state.cooldown == nil, state.isNumberComplete else { return false }
        return state.mode == .signIn || !trimmedName(state).isEmpty
    }

    /// What a screen reader hears: seed 004's announcements, each once, as its cause appears.
    private func announcements(from before: PhoneSignInState, to after: PhoneSignInState) -> [PhoneSignInEffect] {
        var spoken: [PhoneSignInEffect] = []
        if after.isNumberComplete, !before.isNumberComplete { spoken.append(.announce(messages.text(.phoneValid))) }
        if after.numberError != nil, after.numberError != before.numberError {
            spoken.append(.announce(messages.text(.phoneInvalidAnnouncement)))
        }
        if let error = after.nameError, error != before.nameError { spoken.append(.announce(error)) }
        // A rate limit's sentence counting down is heard once, when it appears, not at every tick.
        let ticking = before.cooldown != nil && after.cooldown != nil && !after.waitsForResend
        if let banner = after.banner, banner != before.banner, !ticking { spoken.append(.announce(banner)) }
        return spoken
    }
}
