import Foundation
import GatehouseClient
import GatehouseCore
import GatehouseModel
import GatehouseServer
import GatehouseTestSupport
import LoginCore
import Testing

/// The SDK's passkeys (issue 23) against the real server with the software authenticator:
/// seed 003's offer through ``BiometricOffer``, the launch decision, the biometric prompt
/// through ``PasskeySignIn``, and a removed passkey forgotten.
@Suite struct PasskeyClientTests {
    static let email = "mentor@example.com"
    static let password = "a fine long passphrase"

    static func withServer(_ body: (LoopbackServer) async throws -> Void) async throws {
        let server = try await LoopbackServer.start(users: [(Self.email, "Mentor", Self.password)])
        do {
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// Runs a machine's effects through the client until none are left.
    static func drive(_ offer: BiometricOffer, _ event: BiometricOfferEvent, _ state: inout BiometricOfferState, client: AuthClient, authenticator: SoftwareAuthenticator) async {
        var effects = offer.send(event, to: &state)
        while !effects.isEmpty {
            let effect = effects.removeFirst()
            if let next = await client.perform(effect, authenticator: authenticator) { effects += offer.send(next, to: &state) }
        }
    }

    @Test func K23_theOfferEnrolsTheNextLaunchShowsThePromptAndThePromptSignsIn() async throws {
        try await Self.withServer { server in
            let marker = InMemoryPasskeyMarker()
            let client = AuthClient(transport: try RESTTransport(baseURL: server.url), store: InMemorySessionStore(), passkeyMarker: marker)
            let authenticator = SoftwareAuthenticator(origin: "http://127.0.0.1:0")
            #expect(await client.launchScreen() == .login(.signedOut))
            _ = try await client.signIn(email: Self.email, password: Self.password)
            let offer = BiometricOffer()
            var state = BiometricOfferState()
            await Self.drive(offer, .appeared(afterPassword: true, enrolledHere: false, declinedHere: false), &state, client: client, authenticator: authenticator)
            #expect(state.phase == .offered)
            await Self.drive(offer, .accept, &state, client: client, authenticator: authenticator)
            #expect(state == { var s = BiometricOfferState(); s.phase = .enabled; return s }())
            #expect(await marker.isEnrolled())
            #expect(try await client.passkeys().count == 1)
            try await client.signOut()
            // The next launch: the biometric prompt, not the form.
            #expect(await client.launchScreen() == .biometricPrompt)
            let prompt = PasskeySignIn()
            var promptState = PasskeySignInState()
            var effects = prompt.send(.launched(enrolled: true), to: &promptState)
            #expect(promptState.phase == .prompting)
            var home: LoginSuccess?
            while !effects.isEmpty {
                let effect = effects.removeFirst()
                if case .showHome(let success) = effect { home = success }
                if let event = await client.perform(effect, authenticator: authenticator) { effects += prompt.send(event, to: &promptState) }
            }
            #expect(promptState.phase == .signedIn && home?.user.email == Self.email)
            #expect(await client.currentSession?.user.email == Self.email, "the session is stored")
        }
    }

    @Test func K23_aCancelledPromptLeavesTheFormAndARemovedPasskeyIsForgotten() async throws {
        try await Self.withServer { server in
            let marker = InMemoryPasskeyMarker()
            let client = AuthClient(transport: try RESTTransport(baseURL: server.url), store: InMemorySessionStore(), passkeyMarker: marker)
            let authenticator = SoftwareAuthenticator(origin: "http://127.0.0.1:0")
            _ = try await client.signIn(email: Self.email, password: Self.password)
            let added = try await client.registerPasskey(using: authenticator, name: "Test phone")
            #expect(added.name == "Test phone" && !added.synced)
            let prompt = PasskeySignIn()
            var state = PasskeySignInState()
            _ = prompt.send(.launched(enrolled: true), to: &state)
            authenticator.configure { $0.cancel = true }
            let cancelled = await client.perform(.signInWithPasskey, authenticator: authenticator)
            #expect(cancelled == .signInResponse(.failure(.passkeyCancelled)))
            // Removed on the server (another device), still on this one.
            let session = try #require(await client.currentSession)
            try await RESTTransport(baseURL: server.url).deletePasskey(id: added.id, accessToken: session.accessToken)
            authenticator.configure { $0.cancel = false }
            do {
                try await client.signInWithPasskey(using: authenticator)
                Issue.record("a removed passkey signed in")
            } catch let error as AuthError {
                #expect(error.loginFailure == .passkeyUnknown)
            }
            #expect(await marker.isEnrolled() == false, "the device forgets it: the next launch shows the form")
        }
    }
}
