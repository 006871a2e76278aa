import Foundation

/// Authenticator data (WebAuthn §6.1): the relying party's hash, the flags, the signature
/// counter and, at registration, the new credential.
///
/// Parsing is strict: the attested credential and the extensions are present exactly when
/// their flags say so, the credential id is at most 1,023 bytes, and no byte may trail.
public struct AuthenticatorData: Sendable {
    public var rpIDHash: [UInt8]
    public var flags: Flags
    public var signCount: UInt32
    public var attestedCredential: AttestedCredential?
    /// The raw bytes, which assertions sign.
    public var raw: [UInt8]

    /// The longest credential id WebAuthn allows.
    public static let maximumCredentialIDLength = 1_023

    public init(_ bytes: [UInt8]) throws(PasskeyFailure) {
        guard bytes.count >= 37 else { throw .malformed("authenticator data") }
        raw = bytes
        rpIDHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var offset = 37
        if flags.contains(.attestedCredentialData) {
            guard bytes.count >= offset + 18 else { throw .malformed("attested credential data") }
            let aaguid = Array(bytes[offset..<offset + 16])
            let length = Int(bytes[offset + 16]) << 8 | Int(bytes[offset + 17])
            offset += 18
            guard length > 0, length <= Self.maximumCredentialIDLength else { throw .credentialIDTooLong }
            guard bytes.count >= offset + length else { throw .malformed("credential id") }
            let credentialID = Array(bytes[offset..<offset + length])
            offset += length
            var reader = CBORReader(bytes, offset: offset)
            guard let key = try? reader.read() else { throw .malformed("credential public key") }
            let keyBytes = Array(bytes[offset..<reader.position])
            offset = reader.position
            attestedCredential = AttestedCredential(aaguid: aaguid, credentialID: credentialID, publicKey: key, publicKeyBytes: keyBytes)
        }
        if flags.contains(.extensionData) {
            var reader = CBORReader(bytes, offset: offset)
            guard let extensions = try? reader.read(), extensions.entries != nil else { throw .malformed("extensions") }
            offset = reader.position
        }
        guard offset == bytes.count else { throw .malformed("authenticator data has trailing bytes") }
    }

    /// The flags byte (§6.1).
    public struct Flags: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let userPresent = Flags(rawValue: 0x01)
        public static let userVerified = Flags(rawValue: 0x04)
        /// Backup eligible: a synced (multi-device) credential.
        public static let backupEligible = Flags(rawValue: 0x08)
        /// Backed up now.
        public static let backupState = Flags(rawValue: 0x10)
        public static let attestedCredentialData = Flags(rawValue: 0x40)
        public static let extensionData = Flags(rawValue: 0x80)
    }
}

/// The credential a registration created (§6.5.2).
public struct AttestedCredential: Sendable {
    public var aaguid: [UInt8]
    public var credentialID: [UInt8]
    public var publicKey: CBORValue
    /// The key exactly as encoded, which is what is stored.
    public var publicKeyBytes: [UInt8]
}
