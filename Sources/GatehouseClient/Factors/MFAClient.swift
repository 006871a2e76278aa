import Foundation
import GatehouseModel

extension AuthClient {
    /// Two-step verification (issue 37), as supabase-swift hangs it off its client (`auth.mfa`).
    public var mfa: MFAClient { MFAClient(client: self) }

    /// Signs in with an email and password and says whether a second factor is due, instead of
    /// treating the `aal1` session as the end of signing in.
    public func signInReportingSecondFactor(email: String, password: String) async throws -> SignInOutcome {
        let session = try await signIn(email: email, password: password)
        return session.needsSecondFactor ? .needsSecondFactor(session.secondFactors ?? []) : .signedIn(session)
    }
}

/// How a sign-in ended: signed in, or waiting for a second factor (the session is kept at
/// `aal1`; answer with ``MFAClient/challenge(factorID:)`` and ``MFAClient/verify(challengeID:answer:)``).
public enum SignInOutcome: Sendable, Equatable {
    case signedIn(Session)
    case needsSecondFactor([FactorSummary])
}

/// Enrol, challenge, verify and remove second factors, and recovery codes. Each call uses the
/// client's session; each verification stores the new `aal2` session it answers.
public struct MFAClient: Sendable {
    let client: AuthClient

    /// The account's factors and how many recovery codes are left.
    public func factors() async throws -> MFAFactorList {
        try await transport().factors(accessToken: try await client.session().accessToken)
    }

    /// Starts an authenticator-app enrolment: show its QR code or secret, then call
    /// ``verifyEnrolment(factorID:code:)`` with the app's first code.
    public func enrol(friendlyName: String? = nil) async throws -> MFAEnrolment {
        try await transport().enrol(friendlyName: friendlyName, accessToken: try await client.session().accessToken)
    }

    /// The first code: the factor is verified, the session steps up to `aal2`; answers the
    /// recovery codes (shown once) when this was the account's first factor.
    @discardableResult
    public func verifyEnrolment(factorID: String, code: String) async throws -> [String] {
        let response = try await transport().verifyEnrolment(factorID: factorID, code: code, accessToken: try await client.session().accessToken)
        _ = try await client.manager.adopt(response)
        return response.recoveryCodes ?? []
    }

    /// A challenge of one factor, or (`nil`) one a recovery code answers.
    public func challenge(factorID: String?) async throws -> MFAChallenge {
        try await transport().challenge(factorID: factorID, accessToken: try await client.session().accessToken)
    }

    /// Answers a challenge of `factorID` (Supabase Auth needs it; REST and GraphQL know it from
    /// the challenge); the new `aal2` session replaces the stored one.
    @discardableResult
    public func verify(factorID: String? = nil, challengeID: String, answer: MFAAnswer) async throws -> Session {
        let response = try await transport().verify(
            factorID: factorID, challengeID: challengeID, answer: answer, accessToken: try await client.session().accessToken
        )
        return try await client.manager.adopt(response)
    }

    /// Steps the session up with one of the account's passkeys (REST); the `aal2` session is stored.
    @discardableResult
    public func verifyWithPasskey(using authenticator: any PlatformAuthenticator) async throws -> Session {
        guard let passkeys = client.transport as? any PasskeyTransport else {
            throw AuthError.server(status: 0, code: "unsupported", message: "This backend has no passkeys")
        }
        let options = try await passkeys.passkeyAuthenticationOptions()
        let credential = try await authenticator.authenticate(options)
        let response = try await transport().verifyPasskey(credential, accessToken: try await client.session().accessToken)
        return try await client.manager.adopt(response)
    }

    /// Removes a factor (needs a recent second factor once the account has one).
    public func unenrol(factorID: String) async throws {
        try await transport().unenrol(factorID: factorID, accessToken: try await client.session().accessToken)
    }

    /// A new set of recovery codes, shown once; the old set stops working.
    public func regenerateRecoveryCodes() async throws -> [String] {
        try await transport().regenerateRecoveryCodes(accessToken: try await client.session().accessToken)
    }

    private func transport() throws -> any MFATransport {
        guard let mfa = client.transport as? any MFATransport else {
            throw AuthError.server(status: 0, code: "unsupported", message: "This backend cannot do two-step verification")
        }
        return mfa
    }
}
