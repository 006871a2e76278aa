/// Which provider a button signs in with: its id and the name its copy uses.
///
/// Google's button speaks the app's own copy (`providerButton`, `providerFailed`, …, the seeds'
/// words); every other provider's is the `named…` copy with its label in `{provider}`.
public struct ProviderDescriptor: Equatable, Sendable {
    public let id: SignInMethods.Method
    /// "Apple", "GitHub", "Acme SSO".
    public let label: String

    public init(id: SignInMethods.Method, label: String) {
        self.id = id
        self.label = label
    }

    public static let google = ProviderDescriptor(id: .google, label: "Google")

    /// A message of this provider's button, in the app's words.
    public func text(_ key: ProviderText, in messages: MessageCatalogue) -> String {
        guard id != .google else { return messages.text(key.googleKey) }
        return messages.text(key.namedKey, ["provider": label])
    }
}

/// The provider copy that differs by provider.
public enum ProviderText: Sendable, CaseIterable {
    case button, signingIn, failed, linkRequired, link, unlink

    var googleKey: MessageKey {
        switch self {
        case .button: .providerButton
        case .signingIn: .providerSigningIn
        case .failed: .providerFailed
        case .linkRequired: .providerLinkRequired
        case .link: .linkProvider
        case .unlink: .unlinkProvider
        }
    }

    var namedKey: MessageKey {
        switch self {
        case .button: .namedProviderButton
        case .signingIn: .namedProviderSigningIn
        case .failed: .namedProviderFailed
        case .linkRequired: .namedProviderLinkRequired
        case .link: .namedLinkProvider
        case .unlink: .namedUnlinkProvider
        }
    }
}
