import Crypto
import CryptoExtras
import Foundation
import GatehouseClient
import GatehouseCore
import GatehouseModel
import Synchronization

/// A platform authenticator in software (P-256 or RSA-2048), for the Linux tests: it makes
/// and uses discoverable credentials as a phone's would, and can be told to misbehave in each
/// way WebAuthn §7 must catch.
public final class SoftwareAuthenticator: PlatformAuthenticator {
    /// How the next responses are bent; each default is an honest authenticator.
    public struct Behaviour: Sendable {
        public var origin: String
        public var algorithm = COSEAlgorithm.es256
        /// Flags as the authenticator sets them; tests clear UP or UV, or set BE and BS.
        public var userPresent = true
        public var userVerified = true
        public var backupEligible = false
        public var backedUp = false
        /// The counter the next assertion reports; `nil` counts up from the stored value.
        public var signCount: UInt32?
        public var attestation = "none"
        public var clientDataType: String?
        public var crossOrigin: Bool?
        public var topOrigin: String?
        /// The relying party id whose hash goes into authenticator data; `nil` uses the options'.
        public var rpID: String?
        /// Flip a bit of the signature.
        public var corruptSignature = false
        /// Bytes appended to authenticator data.
        public var trailingBytes: [UInt8] = []
        /// Send another credential's id as `id` (registration's `id` and `rawId` disagree).
        public var mismatchedID = false
        /// Make the next credential with this id (a second registration of the same credential).
        public var credentialID: [UInt8]?
        /// Throw ``AuthError/passkeyCancelled`` as a dismissed prompt does.
        public var cancel = false
        public var available = true

        public init(origin: String) {
            self.origin = origin
        }
    }

    /// A credential the authenticator holds.
    public struct Credential: Sendable {
        public var id: [UInt8]
        public var rpID: String
        public var userHandle: [UInt8]
        public var key: Key
        public var signCount: UInt32
    }

    public enum Key: Sendable {
        case p256(P256.Signing.PrivateKey)
        case rsa(_RSA.Signing.PrivateKey)
    }

    private let state: Mutex<(behaviour: Behaviour, credentials: [Credential], lastRegistration: PasskeyRegistrationJSON?)>

    public init(origin: String) {
        state = Mutex((Behaviour(origin: origin), [], nil))
    }

    /// Changes how the next responses are made.
    public func configure(_ change: (inout Behaviour) -> Void) {
        state.withLock { change(&$0.behaviour) }
    }

    public var credentials: [Credential] { state.withLock { $0.credentials } }

    public func isAvailable() async -> Bool { state.withLock { $0.behaviour.available } }

    public func register(_ options: PasskeyCreationOptions) async throws -> PasskeyRegistrationJSON {
        let behaviour = state.withLock { $0.behaviour }
        if behaviour.cancel { throw AuthError.passkeyCancelled }
        guard options.pubKeyCredParams.contains(where: { $0.alg == behaviour.algorithm }) else {
            throw AuthError.authenticatorFailure("no offered algorithm")
        }
        let key: Key = behaviour.algorithm == COSEAlgorithm.rs256 ? .rsa(try _RSA.Signing.PrivateKey(keySize: .bits2048)) : .p256(P256.Signing.PrivateKey())
        let id = behaviour.credentialID ?? Array(SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) })
        let handle = Array(Data(base64URLEncoded: options.user.id) ?? Data())
        let rpID = behaviour.rpID ?? options.rp.id
        let clientData = clientDataJSON(type: behaviour.clientDataType ?? "webauthn.create", challenge: options.challenge, behaviour: behaviour)
        var authData = authenticatorData(rpID: rpID, behaviour: behaviour, signCount: 0, attested: true)
        authData += Array(repeating: 0, count: 16) + [UInt8(id.count >> 8), UInt8(id.count & 0xFF)] + id + CBORWriter.encode(Self.cose(key))
        authData += behaviour.trailingBytes
        var statement: [CBORMapEntry] = []
        if behaviour.attestation == "packed" {
            let signature = sign(authData + Array(SHA256.hash(data: clientData)), with: key, corrupt: behaviour.corruptSignature)
            statement = [CBORMapEntry(.text("alg"), .int(behaviour.algorithm)), CBORMapEntry(.text("sig"), .bytes(signature))]
        }
        let attestation = CBORWriter.encode(.map([
            CBORMapEntry(.text("fmt"), .text(behaviour.attestation)), CBORMapEntry(.text("attStmt"), .map(statement)),
            CBORMapEntry(.text("authData"), .bytes(authData)),
        ]))
        state.withLock { $0.credentials.append(Credential(id: id, rpID: options.rp.id, userHandle: handle, key: key, signCount: 0)) }
        let idText = behaviour.mismatchedID ? Data(id.reversed()).base64URLEncoded() : Data(id).base64URLEncoded()
        let json = PasskeyRegistrationJSON(
            id: idText, rawId: Data(id).base64URLEncoded(),
            response: .init(clientDataJSON: Data(clientData).base64URLEncoded(), attestationObject: Data(attestation).base64URLEncoded(), transports: ["internal"]),
            authenticatorAttachment: "platform"
        )
        state.withLock { $0.lastRegistration = json }
        return json
    }

    public func authenticate(_ options: PasskeyRequestOptions) async throws -> PasskeyAssertionJSON {
        let (behaviour, candidates) = state.withLock { ($0.behaviour, $0.credentials.filter { $0.rpID == options.rpId }) }
        if behaviour.cancel { throw AuthError.passkeyCancelled }
        guard let credential = candidates.last else { throw AuthError.authenticatorFailure("no passkey for \(options.rpId)") }
        let count = behaviour.signCount ?? credential.signCount + 1
        state.withLock { state in
            if let index = state.credentials.firstIndex(where: { $0.id == credential.id }) { state.credentials[index].signCount = count }
        }
        return assertion(for: credential, challenge: options.challenge, signCount: count, behaviour: behaviour)
    }

    /// An assertion by a given credential, for tests that replay or forge.
    public func assertion(for credential: Credential, challenge: String, signCount: UInt32, behaviour: Behaviour) -> PasskeyAssertionJSON {
        let clientData = clientDataJSON(type: behaviour.clientDataType ?? "webauthn.get", challenge: challenge, behaviour: behaviour)
        let authData = authenticatorData(rpID: behaviour.rpID ?? credential.rpID, behaviour: behaviour, signCount: signCount, attested: false)
            + behaviour.trailingBytes
        let signature = sign(authData + Array(SHA256.hash(data: clientData)), with: credential.key, corrupt: behaviour.corruptSignature)
        return PasskeyAssertionJSON(
            id: Data(credential.id).base64URLEncoded(), rawId: Data(credential.id).base64URLEncoded(),
            response: .init(
                clientDataJSON: Data(clientData).base64URLEncoded(), authenticatorData: Data(authData).base64URLEncoded(),
                signature: Data(signature).base64URLEncoded(), userHandle: Data(credential.userHandle).base64URLEncoded()
            ),
            authenticatorAttachment: "platform"
        )
    }

    private func clientDataJSON(type: String, challenge: String, behaviour: Behaviour) -> [UInt8] {
        var fields = [#""type":"\#(type)""#, #""challenge":"\#(challenge)""#, #""origin":"\#(behaviour.origin)""#]
        if let crossOrigin = behaviour.crossOrigin { fields.append(#""crossOrigin":\#(crossOrigin)"#) }
        if let topOrigin = behaviour.topOrigin { fields.append(#""topOrigin":"\#(topOrigin)""#) }
        return Array("{\(fields.joined(separator: ","))}".utf8)
    }

    private func authenticatorData(rpID: String, behaviour: Behaviour, signCount: UInt32, attested: Bool) -> [UInt8] {
        var flags: UInt8 = 0
        if behaviour.userPresent { flags |= 0x01 }
        if behaviour.userVerified { flags |= 0x04 }
        if behaviour.backupEligible { flags |= 0x08 }
        if behaviour.backedUp { flags |= 0x10 }
        if attested { flags |= 0x40 }
        return Array(SHA256.hash(data: Data(rpID.utf8))) + [flags] + CBORWriter.bigEndian(UInt64(signCount), 4)
    }

    private func sign(_ data: [UInt8], with key: Key, corrupt: Bool) -> [UInt8] {
        var signature: [UInt8]
        switch key {
        case .p256(let key): signature = Array((try? key.signature(for: data).derRepresentation) ?? Data())
        case .rsa(let key): signature = Array((try? key.signature(for: SHA256.hash(data: data), padding: .insecurePKCS1v1_5).rawRepresentation) ?? Data())
        }
        if corrupt, !signature.isEmpty { signature[signature.count - 1] ^= 0x01 }
        return signature
    }

    /// The credential's public key as COSE.
    public static func cose(_ key: Key) -> CBORValue {
        switch key {
        case .p256(let key):
            let point = Array(key.publicKey.x963Representation)
            return .map([
                CBORMapEntry(.int(1), .int(2)), CBORMapEntry(.int(3), .int(COSEAlgorithm.es256)), CBORMapEntry(.int(-1), .int(1)),
                CBORMapEntry(.int(-2), .bytes(Array(point[1..<33]))), CBORMapEntry(.int(-3), .bytes(Array(point[33..<65]))),
            ])
        case .rsa(let key):
            let primitives = try? key.publicKey.getKeyPrimitives()
            let (n, e) = (primitives?.modulus ?? Data(), primitives?.publicExponent ?? Data())
            return .map([
                CBORMapEntry(.int(1), .int(3)), CBORMapEntry(.int(3), .int(COSEAlgorithm.rs256)),
                CBORMapEntry(.int(-1), .bytes(Array(n))), CBORMapEntry(.int(-2), .bytes(Array(e))),
            ])
        }
    }
}
