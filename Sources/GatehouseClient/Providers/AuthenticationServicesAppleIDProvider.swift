#if canImport(AuthenticationServices) && canImport(CryptoKit) && (os(iOS) || os(macOS) || os(visionOS))
import AuthenticationServices
import CryptoKit
import Foundation

/// Sign in with Apple on Apple platforms, through AuthenticationServices: the system sheet
/// with `name` and `email`, the nonce's SHA-256 in the request.
///
/// The app needs the Sign in with Apple capability. Compiled only where AuthenticationServices
/// exists, like ``ApplePlatformAuthenticator``.
@available(iOS 16.0, macOS 13.0, *)
public final class AuthenticationServicesAppleIDProvider: NSObject, AppleIDProvider, @unchecked Sendable {
    private let anchor: @MainActor @Sendable () -> ASPresentationAnchor
    private var continuation: CheckedContinuation<AppleIDCredential, any Error>?

    /// - Parameter anchor: the window the sheet is shown over.
    public init(anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) {
        self.anchor = anchor
    }

    public func credential(nonce: String) async throws -> AppleIDCredential {
        let request = ASAuthorizationAppleIDProvider().createRequest()
        request.requestedScopes = [.fullName, .email]
        request.nonce = SHA256.hash(data: Data(nonce.utf8)).map { String(format: "%02x", $0) }.joined()
        return try await withCheckedThrowingContinuation { continuation in
            self.continuation = continuation
            Task { @MainActor in
                let controller = ASAuthorizationController(authorizationRequests: [request])
                controller.delegate = self
                controller.presentationContextProvider = self
                controller.performRequests()
            }
        }
    }
}

@available(iOS 16.0, macOS 13.0, *)
extension AuthenticationServicesAppleIDProvider: ASAuthorizationControllerDelegate, ASAuthorizationControllerPresentationContextProviding {
    public func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
        MainActor.assumeIsolated { anchor() }
    }

    public func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization) {
        guard let credential = authorization.credential as? ASAuthorizationAppleIDCredential, let data = credential.identityToken,
              let token = String(data: data, encoding: .utf8)
        else {
            continuation?.resume(throwing: AuthError.malformedResponse("Apple returned no identity token"))
            continuation = nil
            return
        }
        let name = credential.fullName.map { PersonNameComponentsFormatter().string(from: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        continuation?.resume(returning: AppleIDCredential(identityToken: token, name: name))
        continuation = nil
    }

    public func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
        let cancelled = (error as? ASAuthorizationError)?.code == .canceled
        continuation?.resume(throwing: cancelled ? AuthError.providerCancelled : AuthError.authenticatorFailure(error.localizedDescription))
        continuation = nil
    }
}
#endif
