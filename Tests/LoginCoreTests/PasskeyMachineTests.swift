import Foundation
import GatehouseModel
import LoginCore
import Testing

/// Seed 003's two new machines, comparing the whole state after every event.
@Suite struct PasskeyMachineTests {
    let offer = BiometricOffer(configuration: .standard)
    let prompt = PasskeySignIn(configuration: .standard)

    func offerState(_ phase: BiometricOfferPhase, banner: String? = nil, error: Bool = false) -> BiometricOfferState {
        var state = BiometricOfferState()
        state.phase = phase
        state.banner = banner
        state.bannerIsError = error
        return state
    }

    func promptState(_ phase: PasskeySignInPhase, banner: String? = nil, error: Bool = false) -> PasskeySignInState {
        var state = PasskeySignInState()
        state.phase = phase
        state.banner = banner
        state.bannerIsError = error
        return state
    }

    @Test func B01_theOfferAppearsOnlyAfterAPasswordSignInWithoutAPasskeyOnACapableDevice() {
        for (afterPassword, enrolledHere, declined) in [(false, false, false), (true, true, false), (true, false, true)] {
            var state = BiometricOfferState()
            #expect(offer.send(.appeared(afterPassword: afterPassword, enrolledHere: enrolledHere, declinedHere: declined), to: &state).isEmpty)
            #expect(state == offerState(.hidden))
        }
        var state = BiometricOfferState()
        #expect(offer.send(.appeared(afterPassword: true, enrolledHere: false, declinedHere: false), to: &state).untracked == [.checkPlatformAuthenticator])
        #expect(state == offerState(.checking))
        var incapable = state
        #expect(offer.send(.platformAuthenticator(available: false), to: &incapable).isEmpty)
        #expect(incapable == offerState(.hidden))
        #expect(offer.send(.platformAuthenticator(available: true), to: &state).untracked == [.announce("Sign in faster next time")])
        #expect(state == offerState(.offered))
        #expect(offer.body == "Use Face ID or your fingerprint to sign in to Gatehouse on this device.")
    }

    @Test func B02_acceptEnrolsACancelKeepsTheOfferWithoutErrorAndNotNowIsRemembered() {
        var state = offerState(.offered)
        #expect(offer.send(.accept, to: &state).untracked == [.registerPasskey])
        #expect(state == offerState(.enrolling))
        #expect(offer.send(.accept, to: &state).isEmpty, "one enrolment at a time")
        #expect(offer.send(.enrolled(.failure(.passkeyCancelled)), to: &state).untracked == [.announce("Face ID or fingerprint sign-in was cancelled.")])
        #expect(state == offerState(.offered, banner: "Face ID or fingerprint sign-in was cancelled."))
        _ = offer.send(.accept, to: &state)
        #expect(offer.send(.enrolled(.failure(.passkeyFailed)), to: &state).untracked.count == 1)
        #expect(state == offerState(.offered, banner: "We couldn't verify your passkey. Please sign in with your password.", error: true))
        _ = offer.send(.accept, to: &state)
        #expect(offer.send(.enrolled(.success(true)), to: &state).untracked == [.rememberEnrolled, .announce("Face ID or fingerprint sign-in is on for this device.")])
        #expect(state == offerState(.enabled))
        var declining = offerState(.offered)
        #expect(offer.send(.decline, to: &declining).untracked == [.rememberDeclined])
        #expect(declining == offerState(.declined))
    }

    @Test func P01_anEnrolledLaunchPromptsAtOnceAndSuccessGoesHome() {
        var state = PasskeySignInState()
        #expect(prompt.send(.launched(enrolled: false), to: &state).isEmpty)
        #expect(state == promptState(.form))
        #expect(prompt.send(.launched(enrolled: true), to: &state).untracked == [.announce("Confirm with Face ID or your fingerprint to continue."), .signInWithPasskey])
        #expect(state == promptState(.prompting))
        let success = LoginSuccess(user: SignedInUser(id: "1", email: "a@example.com", firstName: "A", lastName: ""), tokens: SessionTokens(accessToken: "a", refreshToken: "r", expiresIn: 900))
        #expect(prompt.send(.signInResponse(.success(success)), to: &state).untracked == [.announce("Signed in"), .showHome(success)])
        #expect(state == promptState(.signedIn))
    }

    /// Issue 36, point 3: after an explicit sign-out there is no stored session, so the next
    /// launch shows the form and starts no prompt (approving one would sign straight back in).
    @Test func I36_aLaunchAfterSigningOutShowsTheFormAndStartsNoPrompt() {
        var state = PasskeySignInState()
        #expect(prompt.send(.launched(enrolled: true, signedOut: true), to: &state).isEmpty)
        #expect(state == promptState(.form))
        #expect(prompt.send(.retry, to: &state).untracked == [.signInWithPasskey], "the person may still choose it")
        #expect(state == promptState(.prompting))
    }

    @Test func P02_everyRefusalLeavesThePasswordFormWithTheAppsCopyAndAnUnknownPasskeyIsForgotten() {
        var state = promptState(.prompting)
        #expect(prompt.send(.usePassword, to: &state).untracked == [.focusEmail])
        #expect(state == promptState(.form))
        #expect(prompt.send(.retry, to: &state).untracked == [.signInWithPasskey])
        #expect(state == promptState(.prompting))
        #expect(prompt.send(.signInResponse(.failure(.passkeyCancelled)), to: &state).untracked == [.announce("Face ID or fingerprint sign-in was cancelled."), .focusEmail])
        #expect(state == promptState(.form, banner: "Face ID or fingerprint sign-in was cancelled."))
        _ = prompt.send(.retry, to: &state)
        let unknown = "This passkey is no longer registered. Please sign in with your password."
        #expect(prompt.send(.signInResponse(.failure(.passkeyUnknown)), to: &state).untracked == [.forgetPasskey, .announce(unknown), .focusEmail])
        #expect(state == promptState(.form, banner: unknown, error: true))
        _ = prompt.send(.retry, to: &state)
        _ = prompt.send(.signInResponse(.failure(.passkeyFailed)), to: &state)
        #expect(state == promptState(.form, banner: "We couldn't verify your passkey. Please sign in with your password.", error: true))
        #expect(prompt.send(.usePassword, to: &state).isEmpty, "already on the form")
    }

    @Test func P03_theAppsCopyReplacesEveryDefault() throws {
        let configuration = try JSONDecoder().decode(LoginConfiguration.self, from: Data(#"{"messages":{"biometricPromptTitle":"Hei igjen","usePasswordInstead":"Bruk passord"}}"#.utf8))
        let custom = PasskeySignIn(configuration: configuration)
        #expect(custom.title == "Hei igjen" && custom.usePasswordLabel == "Bruk passord")
    }
}
