import Foundation
import GatehouseModel
import LoginCore

extension AuthClient {
    /// What this launch shows (seed 003): the biometric prompt where the offer was accepted,
    /// else what ``restore()`` decides. ``restore()`` itself is unchanged.
    public func launchScreen() async -> LaunchScreen {
        if await passkeyMarker.isEnrolled() { return .biometricPrompt }
        switch await restore() {
        case .signedIn(let session), .offline(let session): return .home(session)
        case let other: return .login(other)
        }
    }

    /// Adds a passkey on the device's authenticator to the signed-in account and marks the
    /// device enrolled. The session must have signed in within 10 minutes.
    @discardableResult
    public func registerPasskey(using authenticator: any PlatformAuthenticator, name: String? = nil) async throws -> PasskeySummary {
        let passkeys = try passkeyTransport()
        let session = try await manager.validSession()
        let options = try await passkeys.passkeyRegistrationOptions(accessToken: session.accessToken)
        let credential = try await authenticator.register(options)
        let summary = try await passkeys.registerPasskey(credential, name: name, accessToken: session.accessToken)
        await passkeyMarker.setEnrolled(true)
        return summary
    }

    /// Signs in with one of the device's passkeys; the session is stored. A passkey the server
    /// no longer knows is forgotten (marker and platform), so the next launch shows the form.
    @discardableResult
    public func signInWithPasskey(using authenticator: any PlatformAuthenticator) async throws -> Session {
        let passkeys = try passkeyTransport()
        let options = try await passkeys.passkeyAuthenticationOptions()
        let credential = try await authenticator.authenticate(options)
        do {
            return try await manager.adopt(try await transport.token(.passkey(credential)))
        } catch let error as AuthError where error.loginFailure == .passkeyUnknown {
            await passkeyMarker.setEnrolled(false)
            await authenticator.forget(credentialID: credential.id, relyingParty: options.rpId)
            throw error
        }
    }

    /// The account's passkeys.
    public func passkeys() async throws -> [PasskeySummary] {
        try await passkeyTransport().passkeys(accessToken: try await manager.validSession().accessToken)
    }

    /// Runs an offer effect that needs the device or the network and returns the event to feed back.
    public func perform(_ effect: BiometricOfferEffect, authenticator: any PlatformAuthenticator) async -> BiometricOfferEvent? {
        switch effect {
        case .checkPlatformAuthenticator:
            return .platformAuthenticator(available: await authenticator.isAvailable())
        case .registerPasskey:
            do {
                try await registerPasskey(using: authenticator)
                return .enrolled(.success(true))
            } catch {
                return .enrolled(.failure(Self.failure(error)))
            }
        case .track(let event):
            track(event)
            return nil
        case .rememberDeclined, .rememberEnrolled, .announce:
            return nil
        }
    }

    /// Runs a passkey sign-in effect and returns the event to feed back.
    public func perform(_ effect: PasskeySignInEffect, authenticator: any PlatformAuthenticator) async -> PasskeySignInEvent? {
        if case .track(let event) = effect { track(event) }
        guard case .signInWithPasskey = effect else { return nil }
        do {
            return .signInResponse(.success(loginSuccess(try await signInWithPasskey(using: authenticator))))
        } catch {
            return .signInResponse(.failure(Self.failure(error)))
        }
    }

    private func passkeyTransport() throws -> any PasskeyTransport {
        guard let passkeys = transport as? any PasskeyTransport else {
            throw AuthError.server(status: 0, code: "unsupported", message: "This backend cannot use passkeys")
        }
        return passkeys
    }
}
