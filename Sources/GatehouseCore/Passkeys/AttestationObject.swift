import Crypto

/// A registration's attestation object (WebAuthn §6.5): its format, statement and
/// authenticator data.
///
/// Gatehouse asks for no attestation, so it accepts `none` (an empty statement) and `packed`
/// self-attestation (signed by the new credential itself, verified); anything else, including
/// `packed` with a certificate chain, is refused rather than trusted unchecked.
public struct AttestationObject: Sendable {
    public var format: String
    public var authenticatorData: AuthenticatorData
    private var statement: CBORValue

    public init(_ bytes: [UInt8]) throws(PasskeyFailure) {
        guard let object = try? CBORReader.decodeWhole(bytes), object.entries != nil,
              let format = object[text: "fmt"]?.text, let statement = object[text: "attStmt"], statement.entries != nil,
              let data = object[text: "authData"]?.bytes
        else { throw .malformed("attestationObject") }
        self.format = format
        self.statement = statement
        authenticatorData = try AuthenticatorData(data)
    }

    /// Verifies the statement (§8.2 and §8.7) for a credential key over `clientDataHash`.
    public func verify(key: PasskeyPublicKey, clientDataHash: [UInt8]) throws(PasskeyFailure) {
        switch format {
        case "none":
            guard statement.entries?.isEmpty == true else { throw .attestationInvalid }
        case "packed":
            guard let entries = statement.entries, entries.count == 2, let algorithm = statement[text: "alg"]?.int,
                  let signature = statement[text: "sig"]?.bytes
            else { throw .unsupportedAttestation }
            guard algorithm == key.algorithm else { throw .attestationInvalid }
            guard key.isValidSignature(signature, for: authenticatorData.raw + clientDataHash) else { throw .attestationInvalid }
        default:
            throw .unsupportedAttestation
        }
    }
}
