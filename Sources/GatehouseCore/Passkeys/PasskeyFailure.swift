/// Which check of WebAuthn §7.1 or §7.2 a passkey failed.
///
/// Logs and tests name the check; the wire says only ``GatehouseError/passkeyRejected(_:)``'s
/// code, except for the cases a client acts on (an unknown credential, an expired challenge).
public enum PasskeyFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// A field is missing, mistyped or not decodable; the text names the field.
    case malformed(String)
    /// `clientData.type` is not the ceremony's.
    case wrongType
    /// The challenge is unknown, used, expired, or from another ceremony or session.
    case challengeExpired
    case originNotAllowed
    /// `crossOrigin: true` or a `topOrigin`: the ceremony ran in a frame.
    case crossOrigin
    case rpIDMismatch
    case userNotPresent
    case userNotVerified
    /// BS set without BE.
    case backupStateInvalid
    case credentialIDTooLong
    /// `id` and `rawId`, or the attested credential's id, disagree.
    case credentialIDMismatch
    /// An algorithm that was not offered.
    case unsupportedAlgorithm
    /// The key's type, curve or size does not fit its algorithm.
    case keyMismatch
    /// An attestation format other than `none` and `packed` self-attestation.
    case unsupportedAttestation
    case attestationInvalid
    case signatureInvalid
    /// No account has this credential (it was removed, or never registered here).
    case unknownCredential
    /// The user handle is not the credential's account's.
    case userHandleMismatch
    /// The counter went backwards on a credential that cannot be synced: a cloned authenticator.
    case signCountRegressed

    public var description: String {
        switch self {
        case .malformed(let field): "malformed \(field)"
        case .wrongType: "wrong clientData type"
        case .challengeExpired: "challenge unknown, used or expired"
        case .originNotAllowed: "origin not allowed"
        case .crossOrigin: "cross-origin ceremony"
        case .rpIDMismatch: "rpIdHash does not match"
        case .userNotPresent: "user not present"
        case .userNotVerified: "user not verified"
        case .backupStateInvalid: "backup state without backup eligibility"
        case .credentialIDTooLong: "credential id longer than 1023 bytes"
        case .credentialIDMismatch: "credential id mismatch"
        case .unsupportedAlgorithm: "algorithm not offered"
        case .keyMismatch: "key does not fit its algorithm"
        case .unsupportedAttestation: "attestation format not accepted"
        case .attestationInvalid: "attestation signature invalid"
        case .signatureInvalid: "signature invalid"
        case .unknownCredential: "unknown credential"
        case .userHandleMismatch: "user handle mismatch"
        case .signCountRegressed: "signature counter went backwards"
        }
    }
}
