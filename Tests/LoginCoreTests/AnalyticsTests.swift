import Foundation
import Testing
@testable import LoginCore

/// Issue 24's analytics: each machine reports seed 004's events, in order, as `.track`
/// effects; none carries personal data; an app file's `"analytics": false` silences them all.
@Suite struct AnalyticsTests {
    static func tracked<Effect>(_ effects: [Effect], _ match: (Effect) -> AnalyticsEvent?) -> [AnalyticsEvent] {
        effects.compactMap(match)
    }

    /// Runs UrbanNest's phone screen through a whole scripted visit; returns every event reported.
    static func phoneVisit(_ configuration: LoginConfiguration, answer: Result<PhoneCodeSent, AuthFailure>) -> [AnalyticsEvent] {
        let form = PhoneSignInForm(configuration: configuration)
        var state = form.initialState(mode: .signIn)
        var effects: [PhoneSignInEffect] = []
        effects += form.send(.appeared, to: &state)
        effects += form.send(.countriesLoaded([TestCountries.india, TestCountries.uk], preferred: "IN"), to: &state)
        for text in ["9", "98", "98765", "98765 4", "98765 43210"] { effects += form.send(.numberChanged(text, caret: nil), to: &state) }
        effects += form.send(.submit, to: &state)
        effects += form.send(.sendResponse(answer), to: &state)
        return effects.compactMap { if case .track(let event) = $0 { event } else { nil } }
    }

    @Test func A004_thePhoneScreenReportsSeed004sEventsInOrder() throws {
        let urbanNest = try ExampleConfigurations.load("004-urbannest")
        #expect(Self.phoneVisit(urbanNest, answer: .success(TestCountries.sent)) == [
            AnalyticsEvent("screen_view", ["screen_name": .text("login")]),
            AnalyticsEvent("login_phone_started"),
            AnalyticsEvent("login_otp_requested", ["phone_country_code": .text("+91")]),
            AnalyticsEvent("login_otp_success"),
        ])
        #expect(Self.phoneVisit(urbanNest, answer: .failure(.accountNotFound)).last == AnalyticsEvent("login_otp_failed", ["error": .text("account_not_found")]))
        #expect(Self.phoneVisit(urbanNest, answer: .failure(.networkUnavailable)).last == AnalyticsEvent("login_otp_failed", ["error": .text("network_error")]))
    }

    @Test func A004_createAccountIsReportedFromTheSignInScreenOnly() throws {
        let form = PhoneSignInForm(configuration: try ExampleConfigurations.load("004-urbannest"))
        var signIn = form.initialState(mode: .signIn)
        #expect(form.send(.switchMode, to: &signIn).contains(.track(AnalyticsEvent("login_create_account_tapped"))))
        var register = form.initialState(mode: .register)
        #expect(!form.send(.switchMode, to: &register).contains { if case .track = $0 { true } else { false } })
        #expect(form.send(.appeared, to: &register) == [.track(.screenView("register"))])
    }

    @Test func A004_googleReportsStartedThenSuccessWithIsNewUserOrCancelled() throws {
        let button = ProviderButton(configuration: try ExampleConfigurations.load("004-urbannest"))
        func visit(_ outcome: ProviderOutcome) -> [AnalyticsEvent] {
            var state = ProviderButtonState()
            let effects = button.send(.tapped, to: &state) + button.send(.tapped, to: &state) + button.send(.finished(outcome), to: &state)
            return effects.compactMap { if case .track(let event) = $0 { event } else { nil } }
        }
        #expect(visit(.signedIn(isNewUser: false)) == [AnalyticsEvent("login_google_started"), AnalyticsEvent("login_google_success", ["is_new_user": .flag(false)])])
        #expect(visit(.signedIn(isNewUser: true)).last == AnalyticsEvent("login_google_success", ["is_new_user": .flag(true)]))
        #expect(visit(.cancelled) == [AnalyticsEvent("login_google_started"), AnalyticsEvent("login_google_cancelled")])
    }

    @Test func A004_theEmailScreenReportsTheEquivalentEvents() {
        let form = LoginForm()
        var state = form.initialState()
        var effects = form.send(.appeared, to: &state)
        for text in ["u", "us", "user@example.com"] { effects += form.send(.emailChanged(text), to: &state) }
        effects += form.send(.passwordChanged("password123"), to: &state)
        effects += form.send(.submit, to: &state)
        effects += form.send(.loginResponse(.failure(.invalidCredentials)), to: &state)
        effects += form.send(.passwordChanged("password123"), to: &state)
        effects += form.send(.submit, to: &state)
        effects += form.send(.loginResponse(.success(demoSuccess)), to: &state)
        let events = effects.compactMap { if case .track(let event) = $0 { event } else { nil } }
        #expect(events == [
            .screenView("login"), AnalyticsEvent("login_email_started"), AnalyticsEvent("login_email_submitted"),
            AnalyticsEvent("login_email_failed", ["error": .text("invalid_credentials")]), AnalyticsEvent("login_email_submitted"),
            AnalyticsEvent("login_email_success"),
        ])
    }

    @Test func A004_signUpAndPasskeysReportTheirSteps() {
        let signUp = SignUpForm()
        var form = SignUpState()
        var effects = signUp.send(.nameChanged("Ada Lovelace"), to: &form) + signUp.send(.emailChanged("ada@example.com"), to: &form)
        effects += signUp.send(.passwordChanged("a long and quiet river"), to: &form) + signUp.send(.submit, to: &form)
        effects += signUp.send(.signUpResponse(.success("ada@example.com")), to: &form)
        #expect(effects.compactMap { if case .track(let event) = $0 { event.name } else { nil } } == ["signup_submitted", "signup_success"])

        let prompt = PasskeySignIn()
        var promptState = PasskeySignInState()
        let promptEffects = prompt.send(.launched(enrolled: true), to: &promptState) + prompt.send(.signInResponse(.failure(.passkeyCancelled)), to: &promptState)
        #expect(promptEffects.compactMap { if case .track(let event) = $0 { event.name } else { nil } } == ["login_passkey_started", "login_passkey_cancelled"])

        let offer = BiometricOffer()
        var offerState = BiometricOfferState()
        var offerEffects = offer.send(.appeared(afterPassword: true, enrolledHere: false, declinedHere: false), to: &offerState)
        offerEffects += offer.send(.platformAuthenticator(available: true), to: &offerState) + offer.send(.accept, to: &offerState)
        offerEffects += offer.send(.enrolled(.success(true)), to: &offerState)
        #expect(offerEffects.compactMap { if case .track(let event) = $0 { event.name } else { nil } } == [
            "biometric_offer_shown", "biometric_offer_accepted", "biometric_enabled",
        ])
    }

    @Test func A004_noEventCarriesPersonalData() throws {
        let events = Self.phoneVisit(try ExampleConfigurations.load("004-urbannest"), answer: .failure(.accountNotFound))
        let text = String(decoding: try JSONEncoder().encode(events), as: UTF8.self)
        for personal in ["98765", "43210", "9876543210", "IN\"", "India"] {
            #expect(!text.contains(personal), "an analytics event carries \(personal)")
        }
    }

    @Test func A004_anAppFileTurnsAnalyticsOff() throws {
        let data = Data(#"{"login": {"analytics": false}}"#.utf8)
        let silent = try JSONDecoder().decode(AppConfiguration.self, from: data).login
        #expect(!silent.analytics && LoginConfiguration().analytics)
        #expect(Self.phoneVisit(silent, answer: .success(TestCountries.sent)).isEmpty)
        let form = LoginForm(configuration: silent)
        var state = form.initialState()
        #expect(form.send(.appeared, to: &state).isEmpty)
        var button = ProviderButtonState()
        #expect(!ProviderButton(configuration: silent).send(.tapped, to: &button).contains { if case .track = $0 { true } else { false } })
    }
}
