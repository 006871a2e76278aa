import Crypto
import Foundation
import JWTKit

/// The ES256 key that signs access tokens, with its `kid` and public JWK.
///
/// The key is generated on first start and kept as a PEM file readable only by its owner, so
/// tokens stay valid across restarts. The `kid` is the key's RFC 7638 thumbprint.
public struct SigningKey: Sendable {
    let privateKey: ES256PrivateKey
    /// The key identifier placed in every token header.
    public let kid: String
    /// The public half, as published at `/.well-known/jwks.json`.
    public let jwk: PublicJWK

    init(privateKey: ES256PrivateKey) throws {
        guard let parameters = privateKey.parameters else { throw JWTError.generic(identifier: "ecdsa", reason: "no public parameters") }
        self.privateKey = privateKey
        let thumbprintInput = #"{"crv":"P-256","kty":"EC","x":"\#(parameters.x)","y":"\#(parameters.y)"}"#
        kid = Data(SHA256.hash(data: Data(thumbprintInput.utf8))).base64URLEncoded()
        jwk = PublicJWK(kid: kid, x: parameters.x, y: parameters.y)
    }

    /// Creates a key that exists only in memory (tests, `:memory:` databases).
    public static func ephemeral() throws -> SigningKey {
        try SigningKey(privateKey: ES256PrivateKey())
    }

    /// Loads the key at `path`, creating it (mode 0600) when the file does not exist.
    public static func loadOrCreate(at path: String) throws -> SigningKey {
        let manager = FileManager.default
        if manager.fileExists(atPath: path) {
            return try SigningKey(privateKey: ES256PrivateKey(pem: String(contentsOfFile: path, encoding: .utf8)))
        }
        let key = try ES256PrivateKey()
        let created = manager.createFile(
            atPath: path, contents: Data(key.pemRepresentation.utf8), attributes: [.posixPermissions: 0o600]
        )
        guard created else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        return try SigningKey(privateKey: key)
    }
}

/// A public EC key in JWK form (RFC 7517).
public struct PublicJWK: Codable, Sendable, Equatable {
    public var kty = "EC"
    public var crv = "P-256"
    public var alg = "ES256"
    public var use = "sig"
    public var kid: String
    public var x: String
    public var y: String
}
