import Foundation

/// A machine whose `send` reports analytics: it runs the machine's `step`, then appends a
/// `.track` effect for each ``AnalyticsEvent`` that ``analytics(for:before:after:effects:)``
/// derives from the event and the states before and after it. The steps know nothing of
/// analytics, and an app file's `"analytics": false` turns every report off.
public protocol AnalyticsReporting {
    associatedtype State
    associatedtype Event
    associatedtype Effect: TrackableEffect
    var configuration: LoginConfiguration { get }
    func step(_ event: Event, to state: inout State) -> [Effect]
    func analytics(for event: Event, before: State, after: State, effects: [Effect]) -> [AnalyticsEvent]
    static func track(_ event: AnalyticsEvent) -> Effect
}

extension AnalyticsReporting {
    /// Applies one event; returns the effects to run, in order, analytics last.
    public func send(_ event: Event, to state: inout State) -> [Effect] {
        let before = state
        let effects = step(event, to: &state)
        guard configuration.analytics else { return effects }
        return effects + analytics(for: event, before: before, after: state, effects: effects).map(Self.track)
    }
}

extension LoginForm: AnalyticsReporting {
    public static func track(_ event: AnalyticsEvent) -> LoginEffect { .track(event) }

    public func analytics(for event: LoginEvent, before: LoginState, after: LoginState, effects: [LoginEffect]) -> [AnalyticsEvent] {
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

extension PhoneSignInForm: AnalyticsReporting {
    public static func track(_ event: AnalyticsEvent) -> PhoneSignInEffect { .track(event) }

    public func analytics(for event: PhoneSignInEvent, before: PhoneSignInState, after: PhoneSignInState, effects: [PhoneSignInEffect]) -> [AnalyticsEvent] {
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

extension CodeEntryForm: AnalyticsReporting {
    public static func track(_ event: AnalyticsEvent) -> CodeEntryEffect { .track(event) }

    public func analytics(for event: CodeEntryEvent, before: CodeEntryState, after state: CodeEntryState, effects: [CodeEntryEffect]) -> [AnalyticsEvent] {
        var events: [AnalyticsEvent] = []
        switch event {
        case .verifyResponse(.success) where before.isVerifying: events = [.loginOTPVerified]
        case .verifyResponse(.failure(let failure)) where before.isVerifying: events = [.loginOTPVerifyFailed(failure)]
        case .resendResponse(.success) where before.isResending: events = [.loginOTPSuccess]
        case .resendResponse(.failure(let failure)) where before.isResending: events = [.loginOTPFailed(failure)]
        default: break
        }
        return events
    }
}

extension ProviderButton: AnalyticsReporting {
    public static func track(_ event: AnalyticsEvent) -> ProviderButtonEffect { .track(event) }

    public func analytics(for event: ProviderButtonEvent, before: ProviderButtonState, after state: ProviderButtonState, effects: [ProviderButtonEffect]) -> [AnalyticsEvent] {
        var events: [AnalyticsEvent] = []
        switch event {
        // Seed 004's Google names stay; every other provider is named in the event.
        case .tapped where effects.contains(.startFlow):
            events = [provider.id == .google ? .loginGoogleStarted : .loginProviderStarted(provider.id)]
        case .finished(.signedIn(let isNewUser)) where before.isBusy:
            events = [provider.id == .google ? .loginGoogleSuccess(isNewUser: isNewUser) : .loginProviderSuccess(provider.id, isNewUser: isNewUser)]
        case .finished(.cancelled) where before.isBusy:
            events = [provider.id == .google ? .loginGoogleCancelled : .loginProviderCancelled(provider.id)]
        case .finished(.failed(let failure)) where before.isBusy:
            events = [provider.id == .google ? .loginGoogleFailed(failure) : .loginProviderFailed(provider.id, failure)]
        default: break
        }
        return events
    }
}

extension SignUpForm: AnalyticsReporting {
    public static func track(_ event: AnalyticsEvent) -> SignUpEffect { .track(event) }

    public func analytics(for event: SignUpEvent, before: SignUpState, after state: SignUpState, effects: [SignUpEffect]) -> [AnalyticsEvent] {
        var events: [AnalyticsEvent] = []
        switch event {
        case .submit where effects.contains(where: { if case .signUp = $0 { true } else { false } }): events = [.signUpSubmitted]
        case .signUpResponse(.success) where before.isSubmitting: events = [.signUpSuccess]
        case .signUpResponse(.failure(let failure)) where before.isSubmitting: events = [.signUpFailed(failure)]
        default: break
        }
        return events
    }
}

extension PasskeySignIn: AnalyticsReporting {
    public static func track(_ event: AnalyticsEvent) -> PasskeySignInEffect { .track(event) }

    public func analytics(for event: PasskeySignInEvent, before: PasskeySignInState, after state: PasskeySignInState, effects: [PasskeySignInEffect]) -> [AnalyticsEvent] {
        var events: [AnalyticsEvent] = []
        if effects.contains(.signInWithPasskey) { events.append(.loginPasskeyStarted) }
        if case .signInResponse(let result) = event, before.phase == .prompting {
            switch result {
            case .success: events.append(.loginPasskeySuccess)
            case .failure(.passkeyCancelled): events.append(.loginPasskeyCancelled)
            case .failure(let failure): events.append(.loginPasskeyFailed(failure))
            }
        }
        return events
    }
}

extension BiometricOffer: AnalyticsReporting {
    public static func track(_ event: AnalyticsEvent) -> BiometricOfferEffect { .track(event) }

    public func analytics(for event: BiometricOfferEvent, before: BiometricOfferState, after state: BiometricOfferState, effects: [BiometricOfferEffect]) -> [AnalyticsEvent] {
        var events: [AnalyticsEvent] = []
        if before.phase == .checking, state.phase == .offered { events.append(.biometricOfferShown) }
        if before.phase == .offered, state.phase == .enrolling { events.append(.biometricOfferAccepted) }
        if before.phase == .offered, state.phase == .declined { events.append(.biometricOfferDeclined) }
        if before.phase != .enabled, state.phase == .enabled { events.append(.biometricEnabled) }
        return events
    }
}
