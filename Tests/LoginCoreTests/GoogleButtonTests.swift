import Foundation
import Testing
@testable import LoginCore

/// The provider button (seeds 002 and 004): busy while the flow runs, then success, new user,
/// cancelled, failed, invalid code or link required, each in the app's own copy. Whole state
/// after every event.
@Suite struct GoogleButtonTests {
    struct Probe {
        let button: ProviderButton
        var state = ProviderButtonState()

        /// Reports the machine made, in order (checked by the suites that name events).
        var events: [AnalyticsEvent] = []

        init(_ app: String, provider: ProviderDescriptor = .google) throws {
            button = ProviderButton(configuration: try ExampleConfigurations.load(app), provider: provider)
        }

        mutating func send(
            _ event: ProviderButtonEvent, effects: [ProviderButtonEffect] = [],
            sourceLocation: SourceLocation = #_sourceLocation, _ update: (inout ProviderButtonState) -> Void
        ) {
            var expected = state
            update(&expected)
            let actual = button.send(event, to: &state)
            #expect(state == expected, "state after \(event)", sourceLocation: sourceLocation)
            #expect(actual.untracked == effects, "effects of \(event)", sourceLocation: sourceLocation)
            events += actual.compactMap(\.tracked)
        }

        mutating func tap(_ busy: String = "Signing in with Google") {
            send(.tapped, effects: [.announce(busy), .startFlow]) {
                $0 = ProviderButtonState()
                $0.isBusy = true
                $0.announcement = busy
            }
        }
    }

    @Test func G002_tapStartsTheFlowOnceAndBusyIgnoresMoreTaps() throws {
        var probe = try Probe("002-peated")
        probe.tap()
        probe.send(.tapped) { _ in }
    }

    @Test func G002_returningUserGoesHome() throws {
        var probe = try Probe("002-peated")
        probe.tap()
        probe.send(.finished(.signedIn(isNewUser: false)), effects: [.announce("Signed in"), .navigate(.home)]) {
            $0 = ProviderButtonState()
            $0.announcement = "Signed in"
        }
    }

    @Test func G004_newUserGoesToProfileSetup() throws {
        var probe = try Probe("004-urbannest")
        probe.tap()
        probe.send(.finished(.signedIn(isNewUser: true)), effects: [.announce("Signed in"), .navigate(.profileSetup)]) {
            $0 = ProviderButtonState()
            $0.announcement = "Signed in"
        }
    }

    @Test func G002_cancelledShowsNothing() throws {
        var probe = try Probe("002-peated")
        probe.tap()
        probe.send(.finished(.cancelled)) { $0 = ProviderButtonState() }
    }

    @Test func G004_cancelledShowsAQuietSignInCancelledThatIsNotAnError() throws {
        var probe = try Probe("004-urbannest")
        probe.tap()
        probe.send(.finished(.cancelled), effects: [.announce("Sign-in cancelled")]) {
            $0 = ProviderButtonState()
            $0.notice = "Sign-in cancelled"
            $0.announcement = "Sign-in cancelled"
        }
    }

    @Test func G002_failureAndInvalidCodeUseSeed002sCopy() throws {
        var probe = try Probe("002-peated")
        probe.tap()
        probe.send(.finished(.failed(.providerFailed)), effects: [.announce("Google sign-in failed. Please try again.")]) {
            $0 = ProviderButtonState()
            $0.error = "Google sign-in failed. Please try again."
            $0.announcement = "Google sign-in failed. Please try again."
        }
        probe.tap()
        probe.send(.finished(.failed(.providerCodeRejected)), effects: [.announce("Authentication failed. Please try again.")]) {
            $0 = ProviderButtonState()
            $0.error = "Authentication failed. Please try again."
            $0.announcement = "Authentication failed. Please try again."
        }
    }

    @Test func G002_aServerErrorOnTheGooglePathIsGoogleSignInFailed() throws {
        var probe = try Probe("002-peated")
        probe.tap()
        probe.send(.finished(.failed(.serverError(status: 502))), effects: [.announce("Google sign-in failed. Please try again.")]) {
            $0 = ProviderButtonState()
            $0.error = "Google sign-in failed. Please try again."
            $0.announcement = "Google sign-in failed. Please try again."
        }
    }

    @Test func G004_failureUsesUrbanNestsCopyAndTheNetworkKeepsItsOwn() throws {
        var probe = try Probe("004-urbannest")
        probe.tap()
        probe.send(.finished(.failed(.providerFailed)), effects: [.announce("Google sign-in failed. Try again.")]) {
            $0 = ProviderButtonState()
            $0.error = "Google sign-in failed. Try again."
            $0.announcement = "Google sign-in failed. Try again."
        }
        probe.tap()
        let offline = MessageCatalogue().text(.networkUnavailable)
        probe.send(.finished(.failed(.networkUnavailable)), effects: [.announce(offline)]) {
            $0 = ProviderButtonState()
            $0.error = offline
            $0.announcement = offline
        }
    }

    @Test func G002_linkRequiredSaysToSignInWithThePasswordFirst() throws {
        var probe = try Probe("002-peated")
        probe.tap()
        let text = "An account with this email already exists. Sign in with your password, then link Google."
        probe.send(.finished(.failed(.providerLinkRequired)), effects: [.announce(text)]) {
            $0 = ProviderButtonState()
            $0.error = text
            $0.announcement = text
        }
    }

    @Test func G002_backForwardCacheResetClearsBusyAndSaysNothing() throws {
        var probe = try Probe("002-peated")
        probe.tap()
        probe.send(.reset) { $0 = ProviderButtonState() }
    }

    @Test func G002_and_G004_buttonCopyIsEachSeedsOwn() throws {
        #expect(try ExampleConfigurations.load("002-peated").messages.text(.providerButton) == "Sign in with Google")
        #expect(try ExampleConfigurations.load("004-urbannest").messages.text(.providerButton) == "Continue with Google")
        #expect(try ExampleConfigurations.load("002-peated").messages.text(.orDivider) == "OR")
    }
}
