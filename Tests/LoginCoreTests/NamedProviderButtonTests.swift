import Foundation
import Testing
@testable import LoginCore

/// Issue 38: every provider but Google speaks the named copy with its label in `{provider}`,
/// and reports `login_provider_*` events naming it; Google keeps the app's copy and seed 004's
/// `login_google_*` names. Whole state after every event.
@Suite struct NamedProviderButtonTests {
    static let acme = ProviderDescriptor(id: SignInMethods.Method(rawValue: "acme-sso"), label: "Acme SSO")

    typealias Probe = GoogleButtonTests.Probe

    @Test func I38_aNamedProvidersFailureAndLinkRequiredUseItsLabelAndItsEventsNameIt() throws {
        var probe = try Probe("004-urbannest", provider: Self.acme)
        probe.tap("Signing in with Acme SSO")
        probe.send(.finished(.failed(.providerFailed)), effects: [.announce("Acme SSO sign-in failed. Please try again.")]) {
            $0 = ProviderButtonState()
            $0.error = "Acme SSO sign-in failed. Please try again."
            $0.announcement = "Acme SSO sign-in failed. Please try again."
        }
        probe.tap("Signing in with Acme SSO")
        let link = "An account with this email already exists. Sign in with your password, then link Acme SSO."
        probe.send(.finished(.failed(.providerLinkRequired)), effects: [.announce(link)]) {
            $0 = ProviderButtonState()
            $0.error = link
            $0.announcement = link
        }
        probe.tap("Signing in with Acme SSO")
        probe.send(.finished(.signedIn(isNewUser: true)), effects: [.announce("Signed in"), .navigate(.profileSetup)]) {
            $0 = ProviderButtonState()
            $0.announcement = "Signed in"
        }
        let acme = AnalyticsValue.text("acme-sso")
        #expect(probe.events == [
            AnalyticsEvent("login_provider_started", ["provider": acme]),
            AnalyticsEvent("login_provider_failed", ["provider": acme, "error": .text("provider_failed")]),
            AnalyticsEvent("login_provider_started", ["provider": acme]),
            AnalyticsEvent("login_provider_failed", ["provider": acme, "error": .text("link_required")]),
            AnalyticsEvent("login_provider_started", ["provider": acme]),
            AnalyticsEvent("login_provider_success", ["provider": acme, "is_new_user": .flag(true)]),
        ])
    }

    @Test func I38_googleKeepsTheAppsCopyAndSeed004sEventNames() throws {
        var probe = try Probe("004-urbannest", provider: .google)
        let busy = try ExampleConfigurations.load("004-urbannest").messages.text(.providerSigningIn)
        probe.tap(busy)
        probe.send(.finished(.cancelled), effects: [.announce("Sign-in cancelled")]) {
            $0 = ProviderButtonState()
            $0.notice = "Sign-in cancelled"
            $0.announcement = "Sign-in cancelled"
        }
        #expect(probe.events.map(\.name) == ["login_google_started", "login_google_cancelled"])
    }

    @Test func I38_methodIdsAreOpenButWellFormedAndOnlyListedOnce() throws {
        #expect(SignInMethods.Method(rawValue: "acme-sso").isWellFormed && SignInMethods.Method(rawValue: "acme-sso").isProvider)
        #expect(!SignInMethods.Method(rawValue: "Acme").isWellFormed && !SignInMethods.Method(rawValue: "-a").isWellFormed)
        #expect(!SignInMethods.Method.email.isProvider && !SignInMethods.Method.phone.isProvider)
        let decode = { (json: String) in try JSONDecoder().decode(SignInMethods.self, from: Data(json.utf8)) }
        #expect(try decode(#"{"methods": ["github", "email", "acme-sso"]}"#).providers.map(\.rawValue) == ["github", "acme-sso"])
        #expect(throws: (any Error).self) { try decode(#"{"methods": ["email", "email"]}"#) }
        #expect(throws: (any Error).self) { try decode(#"{"methods": ["a b"]}"#) }
    }
}
