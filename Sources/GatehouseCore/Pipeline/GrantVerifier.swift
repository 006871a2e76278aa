/// How a feature service proves a grant: the one seam every way in plugs into the pipeline.
///
/// A service registers a verifier for each kind of grant it handles; the composition root
/// registers only the services an app enables, and the pipeline refuses a grant with no
/// verifier before anything is counted (``GrantKind/notOffered``).
package protocol GrantVerifier: Sendable {
    /// The grants this verifier proves.
    var kinds: [GrantKind] { get }
    /// Refuses a malformed grant before anything is counted or hashed.
    func check(_ grant: Grant) throws
    /// The account the grant proves, or `nil` for a wrong secret (the pipeline counts it as a
    /// failure); refusals of its own (an expired code, a provider's answer) are thrown.
    func verify(_ grant: Grant, from client: ClientInfo) async throws -> Verified?
}

/// Each kind of ``Grant``, without its secrets: what verifiers register for.
package enum GrantKind: Sendable, Hashable, CaseIterable {
    case password
    case phoneCode
    case provider
    case flowCode
    case emailLink
    case emailCode
    case passwordReset
    case passkey
    case secondFactor
    case anonymous

    /// Whether an app that requires a verified email refuses this grant for an account whose
    /// email was never proved: every way in but the mails that prove the address themselves.
    package var mustFindTheEmailVerified: Bool {
        switch self {
        case .password, .phoneCode, .provider, .flowCode, .passkey, .anonymous: true
        case .emailLink, .emailCode, .passwordReset, .secondFactor: false
        }
    }

    /// The refusal of a grant no enabled service verifies: the same on every surface.
    package var notOffered: GatehouseError {
        switch self {
        case .password, .emailLink, .passwordReset: .methodNotOffered(.email)
        case .phoneCode: .methodNotOffered(.phone)
        case .emailCode: .methodNotOffered(.emailCode)
        case .provider, .flowCode: .featureNotOffered(.providers)
        case .passkey: .featureNotOffered(.passkeys)
        case .secondFactor: .featureNotOffered(.secondFactors)
        case .anonymous: .methodNotOffered(.anonymous)
        }
    }
}

extension Grant {
    /// The refusal of this grant when no enabled service verifies it; a provider the app does
    /// not configure is named.
    package var notOffered: GatehouseError {
        if case .provider(let id, _) = self { return .methodNotOffered(id) }
        return kind.notOffered
    }

    /// The grant's kind, which names its verifier.
    package var kind: GrantKind {
        switch self {
        case .password: .password
        case .phoneCode: .phoneCode
        case .provider: .provider
        case .flowCode: .flowCode
        case .emailLink: .emailLink
        case .emailCode: .emailCode
        case .passwordReset: .passwordReset
        case .passkey: .passkey
        case .secondFactor: .secondFactor
        case .anonymous: .anonymous
        }
    }
}

extension GrantKind {
    /// Whether the grant only steps up a signed-in session, never signs in on its own.
    package var isStepUpOnly: Bool { self == .secondFactor }

    /// Whether the grant's verifier hashes a password (argon2id, tens of milliseconds): such a
    /// sign-in runs wholly on a hashing thread where the storage allows it
    /// (``StorageAffinity/runsBesideHashing``).
    package var hashesAPassword: Bool { self == .password }

    /// Whether the grant may step up a signed-in session (a second factor, or a passkey).
    package var canStepUp: Bool { self == .secondFactor || self == .passkey }
}
