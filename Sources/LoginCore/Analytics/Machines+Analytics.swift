import Foundation

// Each machine's public `send` runs its `step` and then reports what happened as
// ``AnalyticsEvent``s, derived from the event and the states before and after it: the steps
// know nothing of analytics, and an app file's `"analytics": false` turns every report off.

extension LoginForm {
    /// Applies one event; returns the effects to run, in order, analytics last.
    public func send(_ event: LoginEvent, to state: inout LoginState) -> [LoginEffect] {
        let before = state
        let effects = step(event, to: &state)
        guard configuration.analytics else { return effects }
        return effects + analytics(event, before: before, effects: effects).map(LoginEffect.track)
    }

    private func analytics(_ event: LoginEvent, before: LoginState, effects: [LoginEffect]) -> [AnalyticsEvent] {
        switch event {
        case .appeared: return [.screenView("login")]
        case .emailChanged(let value), .passwordChanged(let value):
            // The first character typed into an empty form.
            return !before.isSubmitting && before.email.isEmpty && before.password.isEmpty && !value.isEmpty ? [.loginEmailStarted] : []
        case .submit:
            return effects.contains { if case .authenticate = $0 { true } else { false } } ? [.loginEmailSubmitted] : []
        case .loginResponse(let result):
            guard before.isSubmitting else { return [] }
            switch result {
            case .success: return [.loginEmailSuccess]
            case .failure(let failure): return [.loginEmailFailed(failure)]
            }
        default: return []
        }
    }
}

extension PhoneSignInForm {
    /// Applies one event; returns the effects to run, in order, analytics last.
    public func send(_ event: PhoneSignInEvent, to state: inout PhoneSignInState) -> [PhoneSignInEffect] {
        let before = state
        let effects = step(event, to: &state)
        guard configuration.analytics else { return effects }
        return effects + analytics(event, before: before, after: state, effects: effects).map(PhoneSignInEffect.track)
    }

    private func analytics(_ event: PhoneSignInEvent, before: PhoneSignInState, after: PhoneSignInState, effects: [PhoneSignInEffect]) -> [AnalyticsEvent] {
        switch event {
        case .appeared: return [.screenView(before.mode == .signIn ? "login" : "register")]
        case .numberChanged: return before.digits.isEmpty && !after.digits.isEmpty ? [.loginPhoneStarted] : []
        case .submit:
            for case .sendCode(let request) in effects { return [.loginOTPRequested(countryCode: Self.dialCode(request.country, in: after))] }
            return []
        case .sendResponse(let result):
            guard before.isSending else { return [] }
            switch result {
            case .success: return [.loginOTPSuccess]
            case .failure(let failure): return [.loginOTPFailed(failure)]
            }
        case .switchMode:
            return before.mode == .signIn && effects.contains { if case .openOtherMode = $0 { true } else { false } } ? [.loginCreateAccountTapped] : []
        default: return []
        }
    }

    /// `+91` for `IN`: the calling code, never the number.
    private static func dialCode(_ region: String, in state: PhoneSignInState) -> String {
        state.countries.first { $0.code == region }?.dialCode ?? state.country?.dialCode ?? ""
    }
}

extension CodeEntryForm {
    /// Applies one event; returns the effects to run, in order, analytics last.
    public func send(_ event: CodeEntryEvent, to state: inout CodeEntryState) -> [CodeEntryEffect] {
        let before = state
        let effects = step(event, to: &state)
        guard configuration.analytics else { return effects }
        var events: [AnalyticsEvent] = []
        switch event {
        case .verifyResponse(.success) where before.isVerifying: events = [.loginOTPVerified]
        case .verifyResponse(.failure(let failure)) where before.isVerifying: events = [.loginOTPVerifyFailed(failure)]
        case .resendResponse(.success) where before.isResending: events = [.loginOTPSuccess]
        case .resendResponse(.failure(let failure)) where before.isResending: events = [.loginOTPFailed(failure)]
        default: break
        }
        return effects + events.map(CodeEntryEffect.track)
    }
}

extension ProviderButton {
    /// Applies one event; returns the effects to run, in order, analytics last.
    public func send(_ event: ProviderButtonEvent, to state: inout ProviderButtonState) -> [ProviderButtonEffect] {
        let before = state
        let effects = step(event, to: &state)
        guard configuration.analytics else { return effects }
        var events: [AnalyticsEvent] = []
        switch event {
        case .tapped where effects.contains(.startFlow): events = [.loginGoogleStarted]
        case .finished(.signedIn(let isNewUser)) where before.isBusy: events = [.loginGoogleSuccess(isNewUser: isNewUser)]
        case .finished(.cancelled) where before.isBusy: events = [.loginGoogleCancelled]
        case .finished(.failed(let failure)) where before.isBusy: events = [.loginGoogleFailed(failure)]
        default: break
        }
        return effects + events.map(ProviderButtonEffect.track)
    }
}

extension SignUpForm {
    /// Applies one event; returns the effects to run, in order, analytics last.
    public func send(_ event: SignUpEvent, to state: inout SignUpState) -> [SignUpEffect] {
        let before = state
        let effects = step(event, to: &state)
        guard configuration.analytics else { return effects }
        var events: [AnalyticsEvent] = []
        switch event {
        case .submit where effects.contains(where: { if case .signUp = $0 { true } else { false } }): events = [.signUpSubmitted]
        case .signUpResponse(.success) where before.isSubmitting: events = [.signUpSuccess]
        case .signUpResponse(.failure(let failure)) where before.isSubmitting: events = [.signUpFailed(failure)]
        default: break
        }
        return effects + events.map(SignUpEffect.track)
    }
}

extension PasskeySignIn {
    /// Applies one event; returns the effects to run, in order, analytics last.
    public func send(_ event: PasskeySignInEvent, to state: inout PasskeySignInState) -> [PasskeySignInEffect] {
        let before = state
        let effects = step(event, to: &state)
        guard configuration.analytics else { return effects }
        var events: [AnalyticsEvent] = []
        if effects.contains(.signInWithPasskey) { events.append(.loginPasskeyStarted) }
        if case .signInResponse(let result) = event, before.phase == .prompting {
            switch result {
            case .success: events.append(.loginPasskeySuccess)
            case .failure(.passkeyCancelled): events.append(.loginPasskeyCancelled)
            case .failure(let failure): events.append(.loginPasskeyFailed(failure))
            }
        }
        return effects + events.map(PasskeySignInEffect.track)
    }
}

extension BiometricOffer {
    /// Applies one event; returns the effects to run, in order, analytics last.
    public func send(_ event: BiometricOfferEvent, to state: inout BiometricOfferState) -> [BiometricOfferEffect] {
        let before = state
        let effects = step(event, to: &state)
        guard configuration.analytics else { return effects }
        var events: [AnalyticsEvent] = []
        if before.phase == .checking, state.phase == .offered { events.append(.biometricOfferShown) }
        if before.phase == .offered, state.phase == .enrolling { events.append(.biometricOfferAccepted) }
        if before.phase == .offered, state.phase == .declined { events.append(.biometricOfferDeclined) }
        if before.phase != .enabled, state.phase == .enabled { events.append(.biometricEnabled) }
        return effects + events.map(BiometricOfferEffect.track)
    }
}
