import Crypto
import Foundation

/// Gatehouse as a WebAuthn relying party (Level 3, §7.1 and §7.2): every check that needs no
/// stored state besides the credential, in the specification's order.
///
/// The challenge is not checked here: the caller consumes it from the one-time secret store,
/// once, before anything else, so a replayed response finds nothing to consume.
public struct RelyingParty: Sendable {
    /// The relying party id: the public URL's host.
    public var id: String
    /// The name authenticators show.
    public var name: String
    /// The exact origins a ceremony may run on: the public URL's, plus native apps' (`--passkey-origin`).
    public var origins: Set<String>
    /// Seconds a challenge lives (and the browser's timeout).
    public var challengeLifetime: Int
    private let idHash: [UInt8]

    public init(id: String, name: String, origins: Set<String>, challengeLifetime: Int = 300) {
        self.id = id
        self.name = name
        self.origins = origins
        self.challengeLifetime = challengeLifetime
        idHash = Array(SHA256.hash(data: Data(id.utf8)))
    }

    /// The relying party for a public URL: its host is the id, its origin the one allowed origin.
    /// - Parameter extraOrigins: more exact origins, such as `android:apk-key-hash:…`.
    public init?(publicURL: String, name: String, extraOrigins: [String] = []) {
        guard let url = URL(string: publicURL), let scheme = url.scheme, let host = url.host, !host.isEmpty else { return nil }
        let port = url.port.map { ":\($0)" } ?? ""
        self.init(id: host, name: name, origins: Set(["\(scheme)://\(host)\(port)"] + extraOrigins))
    }

    /// §7.1: the credential a registration response creates.
    public func verifyRegistration(_ response: PasskeyRegistration) throws(PasskeyFailure) -> NewPasskey {
        guard response.id == Data(response.rawID).base64URLEncoded() else { throw .credentialIDMismatch }
        let clientData = try ClientData.parse(response.clientDataJSON)
        try clientData.check(ceremony: .registration, origins: origins)
        let attestation = try AttestationObject(response.attestationObject)
        let data = attestation.authenticatorData
        try checkFlags(data)
        guard let credential = data.attestedCredential else { throw .malformed("attested credential data") }
        guard credential.credentialID == response.rawID else { throw .credentialIDMismatch }
        let key = try PasskeyPublicKey(cose: credential.publicKey)
        try attestation.verify(key: key, clientDataHash: Array(SHA256.hash(data: response.clientDataJSON)))
        return NewPasskey(
            credentialID: credential.credentialID, publicKey: credential.publicKeyBytes, algorithm: key.algorithm,
            signCount: data.signCount, backupEligible: data.flags.contains(.backupEligible),
            backedUp: data.flags.contains(.backupState), aaguid: credential.aaguid, transports: response.transports
        )
    }

    /// §7.2: checks an assertion against its stored credential.
    /// - Returns: what the assertion says now (counter, backup state) and whether its counter
    ///   went backwards on a synced credential (a clone warning, not a refusal).
    public func verifyAssertion(_ assertion: PasskeyAssertion, clientData: ClientData, credential: PasskeyRecord) throws(PasskeyFailure) -> PasskeyUse {
        try clientData.check(ceremony: .authentication, origins: origins)
        let data = try AuthenticatorData(assertion.authenticatorData)
        try checkFlags(data)
        let key = try PasskeyPublicKey(coseBytes: credential.publicKey)
        let signed = data.raw + Array(SHA256.hash(data: assertion.clientDataJSON))
        guard key.isValidSignature(assertion.signature, for: signed) else { throw .signatureInvalid }
        // §7.2 step 22: a counter that does not grow, when either side is non-zero.
        let regressed = (data.signCount != 0 || credential.signCount != 0) && data.signCount <= credential.signCount
        if regressed && !credential.backupEligible { throw .signCountRegressed }
        return PasskeyUse(signCount: data.signCount, backedUp: data.flags.contains(.backupState), cloneWarning: regressed)
    }

    /// The flag and hash checks both ceremonies share (§7.1 steps 13–17, §7.2 steps 15–18).
    private func checkFlags(_ data: AuthenticatorData) throws(PasskeyFailure) {
        guard data.rpIDHash == idHash else { throw .rpIDMismatch }
        guard data.flags.contains(.userPresent) else { throw .userNotPresent }
        guard data.flags.contains(.userVerified) else { throw .userNotVerified }
        if data.flags.contains(.backupState) && !data.flags.contains(.backupEligible) { throw .backupStateInvalid }
    }
}

/// What an assertion reported, to be recorded on its credential.
public struct PasskeyUse: Sendable, Equatable {
    public var signCount: UInt32
    public var backedUp: Bool
    /// The counter did not grow on a synced credential: recorded, not refused.
    public var cloneWarning: Bool

    public init(signCount: UInt32, backedUp: Bool, cloneWarning: Bool) {
        self.signCount = signCount
        self.backedUp = backedUp
        self.cloneWarning = cloneWarning
    }
}
