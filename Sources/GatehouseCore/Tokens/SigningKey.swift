import Crypto
import Foundation
import JWTKit

/// An ES256 key that signs access tokens, with its `kid` and public JWK.
///
/// Keys live in the database, their private halves sealed (AES-GCM) under the key-encryption
/// key (``KeyEncryptionKey``). The `kid` is the key's RFC 7638 thumbprint.
public struct SigningKey: Sendable {
    package let privateKey: ES256PrivateKey
    /// The key identifier placed in every token header.
    public let kid: String
    /// The public half, as published at `/.well-known/jwks.json`.
    public let jwk: JWK
    /// When the key was made; the newest unretired key signs.
    public let createdAt: Date

    package init(privateKey: ES256PrivateKey, createdAt: Date) throws {
        guard let parameters = privateKey.parameters else { throw JWTError.generic(identifier: "ecdsa", reason: "no public parameters") }
        self.privateKey = privateKey
        self.createdAt = createdAt
        let thumbprintInput = #"{"crv":"P-256","kty":"EC","x":"\#(parameters.x)","y":"\#(parameters.y)"}"#
        kid = Data(SHA256.hash(data: Data(thumbprintInput.utf8))).base64URLEncoded()
        jwk = .ecdsa(.es256, identifier: JWKIdentifier(string: kid), x: parameters.x, y: parameters.y, curve: .p256)
    }

    /// A new random key.
    package static func generate(at date: Date) throws -> SigningKey {
        try SigningKey(privateKey: ES256PrivateKey(), createdAt: date)
    }

    /// The stored form: the private key's PEM sealed under `kek`.
    package func record(sealedWith kek: SymmetricKey) throws -> SigningKeyRecord {
        let box = try AES.GCM.seal(Data(privateKey.pemRepresentation.utf8), using: kek, authenticating: Data(kid.utf8))
        guard let combined = box.combined else { throw CryptoKitError.incorrectParameterSize }
        return SigningKeyRecord(kid: kid, sealedPrivateKey: combined.base64URLEncoded(), createdAt: createdAt)
    }

    /// Opens a stored key; fails if `kek` is not the key it was sealed with.
    package init(record: SigningKeyRecord, kek: SymmetricKey) throws {
        guard let data = Data(base64URLEncoded: record.sealedPrivateKey) else { throw KeyEncryptionKeyError.wrongKey }
        let pem: Data
        do {
            pem = try AES.GCM.open(AES.GCM.SealedBox(combined: data), using: kek, authenticating: Data(record.kid.utf8))
        } catch {
            throw KeyEncryptionKeyError.wrongKey
        }
        try self.init(privateKey: ES256PrivateKey(pem: String(decoding: pem, as: UTF8.self)), createdAt: record.createdAt)
    }

    /// Reads a key from a PEM file written by an earlier release (which kept it next to the database).
    package static func legacy(at path: String, importedAt date: Date) throws -> SigningKey? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try SigningKey(privateKey: ES256PrivateKey(pem: String(contentsOfFile: path, encoding: .utf8)), createdAt: date)
    }
}
