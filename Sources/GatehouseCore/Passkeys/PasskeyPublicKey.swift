import Crypto
import CryptoExtras
import Foundation

/// A credential's public key, read from its COSE form (RFC 9052, RFC 9053), in one of the
/// algorithms Gatehouse offers.
///
/// The key type, curve and size must match the algorithm: an EC2 key for ES256 on P-256 with
/// 32-byte coordinates, an RSA key of 2,048 to 4,096 bits for RS256.
public enum PasskeyPublicKey: Sendable {
    case es256(P256.Signing.PublicKey)
    case rs256(_RSA.Signing.PublicKey)

    /// The COSE algorithm identifiers Gatehouse offers, most preferred first.
    public static let offeredAlgorithms = [COSEAlgorithm.es256, COSEAlgorithm.rs256]

    /// Reads a COSE key and checks it against the offered algorithms.
    public init(cose: CBORValue) throws(PasskeyFailure) {
        guard cose.entries != nil, let algorithm = cose[int: 3]?.int, let keyType = cose[int: 1]?.int else {
            throw .malformed("credential public key")
        }
        switch (algorithm, keyType) {
        case (COSEAlgorithm.es256, 2):
            guard cose[int: -1]?.int == 1, let x = cose[int: -2]?.bytes, let y = cose[int: -3]?.bytes, x.count == 32, y.count == 32,
                  let key = try? P256.Signing.PublicKey(x963Representation: [0x04] + x + y)
            else { throw .keyMismatch }
            self = .es256(key)
        case (COSEAlgorithm.rs256, 3):
            guard let n = cose[int: -1]?.bytes, let e = cose[int: -2]?.bytes, !e.isEmpty, e.count <= 4 else { throw .keyMismatch }
            let modulus = n.drop { $0 == 0 }
            guard (256...512).contains(modulus.count), let key = try? _RSA.Signing.PublicKey(n: Array(modulus), e: e) else {
                throw .keyMismatch
            }
            self = .rs256(key)
        case (COSEAlgorithm.es256, _), (COSEAlgorithm.rs256, _):
            throw .keyMismatch
        default:
            throw .unsupportedAlgorithm
        }
    }

    /// Reads a stored COSE key.
    public init(coseBytes: [UInt8]) throws(PasskeyFailure) {
        guard let cose = try? CBORReader.decodeWhole(coseBytes) else { throw .malformed("credential public key") }
        try self.init(cose: cose)
    }

    /// The key's COSE algorithm identifier.
    public var algorithm: Int {
        switch self {
        case .es256: COSEAlgorithm.es256
        case .rs256: COSEAlgorithm.rs256
        }
    }

    /// Whether `signature` signs `data`: DER ECDSA over SHA-256, or RSASSA-PKCS1-v1_5 with SHA-256.
    public func isValidSignature(_ signature: [UInt8], for data: [UInt8]) -> Bool {
        switch self {
        case .es256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: data)
        case .rs256(let key):
            // `_RSA` defaults to PSS; WebAuthn's RS256 is PKCS#1 v1.5, so the padding is named.
            return key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: data), padding: .insecurePKCS1v1_5
            )
        }
    }
}

/// COSE algorithm identifiers (IANA's registry).
public enum COSEAlgorithm {
    public static let es256 = -7
    public static let rs256 = -257
}
