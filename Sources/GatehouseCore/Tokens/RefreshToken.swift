import Crypto
import ExtrasBase64
import Foundation

/// Opaque refresh tokens: 256 random bits, stored only as SHA-256 hashes.
///
/// When a token is rotated its successor is kept sealed (AES-GCM) under a key derived from the
/// predecessor itself, so a client that presents the old token again within the grace window
/// gets the same successor, while the database alone reveals no usable token.
package enum RefreshToken {
    package static let prefix = "ghr_"

    /// A new random token.
    package static func generate() -> String {
        generate(prefix: prefix)
    }

    /// 256 random bits, base64url, after `prefix`: the form of every opaque secret Gatehouse hands out.
    package static func generate(prefix: String) -> String {
        prefix + SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }.base64URLEncoded()
    }

    /// The hash stored in place of an opaque secret (a refresh token or a web session id).
    package static func hash(_ token: String) -> String {
        Data(SHA256.hash(data: Data(token.utf8))).base64URLEncoded()
    }

    /// Seals a successor so that only a holder of `predecessor` can open it.
    package static func seal(_ successor: String, under predecessor: String) throws -> String {
        let box = try AES.GCM.seal(Data(successor.utf8), using: key(for: predecessor))
        guard let combined = box.combined else { throw CryptoKitError.incorrectParameterSize }
        return combined.base64URLEncoded()
    }

    /// Opens a sealed successor; `nil` when it was not sealed under `predecessor`.
    package static func open(_ sealed: String, with predecessor: String) -> String? {
        guard let data = Data(base64URLEncoded: sealed),
              let box = try? AES.GCM.SealedBox(combined: data),
              let plain = try? AES.GCM.open(box, using: key(for: predecessor))
        else { return nil }
        return String(data: plain, encoding: .utf8)
    }

    private static func key(for token: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(token.utf8)),
            info: Data("gatehouse refresh successor".utf8),
            outputByteCount: 32
        )
    }
}

extension Data {
    /// Base64url without padding (RFC 4648 §5).
    package func base64URLEncoded() -> String {
        Base64.encodeToString(bytes: self, options: [.base64UrlAlphabet, .omitPaddingCharacter])
    }

    /// Decodes unpadded base64url.
    package init?(base64URLEncoded text: String) {
        guard let bytes = try? Base64.decode(string: text, options: [.base64UrlAlphabet, .omitPaddingCharacter]) else { return nil }
        self.init(bytes)
    }
}
