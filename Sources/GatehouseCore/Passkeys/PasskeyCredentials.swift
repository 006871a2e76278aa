import Foundation
import GatehouseModel

/// A registration response (`PublicKeyCredential.toJSON()` of `create()`), decoded to bytes.
public struct PasskeyRegistration: Sendable, Equatable {
    public var id: String
    public var rawID: [UInt8]
    public var clientDataJSON: [UInt8]
    public var attestationObject: [UInt8]
    public var transports: [String]

    /// Decodes the browser's JSON; any field that is not base64url is malformed.
    public init(_ json: PasskeyRegistrationJSON) throws(PasskeyFailure) {
        guard json.type == "public-key" else { throw .malformed("type") }
        id = json.id
        rawID = try Self.bytes(json.rawId, "rawId")
        clientDataJSON = try Self.bytes(json.response.clientDataJSON, "clientDataJSON")
        attestationObject = try Self.bytes(json.response.attestationObject, "attestationObject")
        transports = Array((json.response.transports ?? []).prefix(8).filter { $0.utf8.count <= 32 })
    }

    static func bytes(_ text: String, _ field: String) throws(PasskeyFailure) -> [UInt8] {
        guard text.utf8.count <= 65_536, let data = Data(base64URLEncoded: text) else { throw .malformed(field) }
        return Array(data)
    }
}

/// An authentication response (`PublicKeyCredential.toJSON()` of `get()`), decoded to bytes:
/// what a passkey ``Grant`` carries.
public struct PasskeyAssertion: Sendable, Equatable {
    public var id: String
    public var rawID: [UInt8]
    public var clientDataJSON: [UInt8]
    public var authenticatorData: [UInt8]
    public var signature: [UInt8]
    /// The account's user handle; discoverable credentials always return it.
    public var userHandle: [UInt8]?

    public init(_ json: PasskeyAssertionJSON) throws(PasskeyFailure) {
        guard json.type == "public-key" else { throw .malformed("type") }
        id = json.id
        rawID = try PasskeyRegistration.bytes(json.rawId, "rawId")
        clientDataJSON = try PasskeyRegistration.bytes(json.response.clientDataJSON, "clientDataJSON")
        authenticatorData = try PasskeyRegistration.bytes(json.response.authenticatorData, "authenticatorData")
        signature = try PasskeyRegistration.bytes(json.response.signature, "signature")
        userHandle = try json.response.userHandle.map { text throws(PasskeyFailure) in try PasskeyRegistration.bytes(text, "userHandle") }
        guard id == Data(rawID).base64URLEncoded() else { throw .credentialIDMismatch }
        guard rawID.count <= AuthenticatorData.maximumCredentialIDLength else { throw .credentialIDTooLong }
    }
}

/// A credential a registration created, before it is stored.
public struct NewPasskey: Sendable, Equatable {
    public var credentialID: [UInt8]
    /// The COSE key as the authenticator encoded it.
    public var publicKey: [UInt8]
    public var algorithm: Int
    public var signCount: UInt32
    public var backupEligible: Bool
    public var backedUp: Bool
    public var aaguid: [UInt8]
    public var transports: [String]
}

extension Grant {
    /// The passkey grant from a surface's JSON, the one way every surface builds it; a field
    /// that is not base64url is the passkey's refusal.
    package static func passkey(_ json: PasskeyAssertionJSON) throws -> Grant {
        do {
            return .passkey(try PasskeyAssertion(json))
        } catch {
            throw GatehouseError.passkeyRejected(error)
        }
    }
}
