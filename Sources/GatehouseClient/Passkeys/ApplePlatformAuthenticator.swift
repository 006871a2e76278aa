#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
import AuthenticationServices
import Foundation
import GatehouseModel

/// Face ID and Touch ID passkeys on Apple platforms, through AuthenticationServices.
///
/// The app's associated domains must list `webcredentials:<server host>`, and the server's
/// `/.well-known/apple-app-site-association` must name the app (the app file's
/// `passkeys.appleAppIDs`). Compiled only where AuthenticationServices exists, like the
/// Keychain store.
@available(iOS 16.0, macOS 13.0, *)
public final class ApplePlatformAuthenticator: NSObject, PlatformAuthenticator, @unchecked Sendable {
    private let anchor: @MainActor @Sendable () -> ASPresentationAnchor

    /// - Parameter anchor: the window the system prompt is shown over.
    public init(anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) {
        self.anchor = anchor
    }

    public func isAvailable() async -> Bool {
        #if os(iOS)
        return await MainActor.run { LAContextAvailability.canUseBiometricsOrPasscode() }
        #else
        return true
        #endif
    }

    public func register(_ options: PasskeyCreationOptions) async throws -> PasskeyRegistrationJSON {
        guard let challenge = Data(base64URL: options.challenge), let userID = Data(base64URL: options.user.id) else {
            throw AuthError.malformedResponse("the passkey options are not base64url")
        }
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: options.rp.id)
        let request = provider.createCredentialRegistrationRequest(challenge: challenge, name: options.user.name, userID: userID)
        request.userVerificationPreference = .required
        request.excludedCredentials = options.excludeCredentials.compactMap { descriptor in
            Data(base64URL: descriptor.id).map { ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0) }
        }
        guard let credential = try await perform(request) as? ASAuthorizationPlatformPublicKeyCredentialRegistration,
              let attestation = credential.rawAttestationObject
        else { throw AuthError.authenticatorFailure("no registration") }
        return PasskeyRegistrationJSON(
            id: credential.credentialID.base64URL, rawId: credential.credentialID.base64URL,
            response: .init(clientDataJSON: credential.rawClientDataJSON.base64URL, attestationObject: attestation.base64URL, transports: ["internal", "hybrid"]),
            authenticatorAttachment: "platform"
        )
    }

    public func authenticate(_ options: PasskeyRequestOptions) async throws -> PasskeyAssertionJSON {
        guard let challenge = Data(base64URL: options.challenge) else { throw AuthError.malformedResponse("the passkey options are not base64url") }
        let request = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: options.rpId).createCredentialAssertionRequest(challenge: challenge)
        request.userVerificationPreference = .required
        guard let credential = try await perform(request) as? ASAuthorizationPlatformPublicKeyCredentialAssertion else {
            throw AuthError.authenticatorFailure("no assertion")
        }
        return PasskeyAssertionJSON(
            id: credential.credentialID.base64URL, rawId: credential.credentialID.base64URL,
            response: .init(
                clientDataJSON: credential.rawClientDataJSON.base64URL, authenticatorData: credential.rawAuthenticatorData.base64URL,
                signature: credential.signature.base64URL, userHandle: credential.userID.base64URL
            ),
            authenticatorAttachment: "platform"
        )
    }

    /// Runs one request; a dismissed sheet is ``AuthError/passkeyCancelled``.
    @MainActor
    private func perform(_ request: ASAuthorizationRequest) async throws -> ASAuthorizationCredential {
        let controller = ASAuthorizationController(authorizationRequests: [request])
        let delegate = Delegate(anchor: anchor())
        controller.delegate = delegate
        controller.presentationContextProvider = delegate
        return try await withCheckedThrowingContinuation { continuation in
            delegate.continuation = continuation
            controller.performRequests()
        }
    }

    private final class Delegate: NSObject, ASAuthorizationControllerDelegate, ASAuthorizationControllerPresentationContextProviding {
        let anchor: ASPresentationAnchor
        var continuation: CheckedContinuation<ASAuthorizationCredential, any Error>?

        init(anchor: ASPresentationAnchor) {
            self.anchor = anchor
        }

        func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor { anchor }

        func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization) {
            continuation?.resume(returning: authorization.credential)
            continuation = nil
        }

        func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
            let cancelled = (error as? ASAuthorizationError)?.code == .canceled
            continuation?.resume(throwing: cancelled ? AuthError.passkeyCancelled : AuthError.authenticatorFailure(error.localizedDescription))
            continuation = nil
        }
    }
}

#if os(iOS)
import LocalAuthentication

enum LAContextAvailability {
    /// Whether Face ID, Touch ID or the passcode can verify the user.
    static func canUseBiometricsOrPasscode() -> Bool {
        LAContext().canEvaluatePolicy(.deviceOwnerAuthentication, error: nil)
    }
}
#endif
#endif
