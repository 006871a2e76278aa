import Crypto
import Foundation

/// A factor's TOTP secret sealed for storage: AES-GCM under the key-encryption key, bound to
/// the factor's id (the additional data), so a sealed secret copied onto another factor's row
/// does not open.
public enum FactorSecret {
    /// The stored form of `secret` for the factor `factorID`, base64url.
    public static func seal(_ secret: [UInt8], factorID: String, kek: SymmetricKey) throws -> String {
        let box = try AES.GCM.seal(Data(secret), using: kek, authenticating: Data(factorID.utf8))
        guard let combined = box.combined else { throw CryptoKitError.incorrectParameterSize }
        return combined.base64URLEncoded()
    }

    /// The secret of a stored factor; `nil` under another key or for another factor's row.
    public static func open(_ sealed: String, factorID: String, kek: SymmetricKey) -> [UInt8]? {
        guard let data = Data(base64URLEncoded: sealed), let box = try? AES.GCM.SealedBox(combined: data),
              let secret = try? AES.GCM.open(box, using: kek, authenticating: Data(factorID.utf8)) else { return nil }
        return Array(secret)
    }
}
