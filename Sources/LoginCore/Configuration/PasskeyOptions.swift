/// Passkeys in an app file (`"passkeys"`): seed 003's biometric offer, and the native apps
/// that share the site's passkeys.
///
/// Passkeys themselves are always available where the public URL has a host name; this says
/// whether the web screens offer Face ID or fingerprint after a password sign-in, and what
/// `/.well-known/apple-app-site-association` and `/.well-known/assetlinks.json` publish.
public struct PasskeyOptions: Equatable, Sendable {
    /// Whether Home offers Face ID or fingerprint sign-in after a password sign-in, and the
    /// next visit shows the biometric prompt instead of the form (seed 003).
    public var offer: Bool
    /// iOS apps (`TEAMID.bundle.id`) that use this site's passkeys (webcredentials).
    public var appleAppIDs: [String]
    /// Android apps that use this site's passkeys.
    public var androidApps: [AndroidApp]

    public init(offer: Bool = false, appleAppIDs: [String] = [], androidApps: [AndroidApp] = []) {
        self.offer = offer
        self.appleAppIDs = appleAppIDs
        self.androidApps = androidApps
    }

    /// An Android app: its package and its signing certificates' SHA-256 fingerprints.
    public struct AndroidApp: Equatable, Sendable, Codable {
        public var package: String
        public var sha256CertFingerprints: [String]

        public init(package: String, sha256CertFingerprints: [String]) {
            self.package = package
            self.sha256CertFingerprints = sha256CertFingerprints
        }
    }
}

extension PasskeyOptions: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable { case offer, appleAppIDs, androidApps }

    public init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            offer: try container.decodeIfPresent(Bool.self, forKey: .offer) ?? false,
            appleAppIDs: try container.decodeIfPresent([String].self, forKey: .appleAppIDs) ?? [],
            androidApps: try container.decodeIfPresent([AndroidApp].self, forKey: .androidApps) ?? []
        )
        for id in appleAppIDs where !id.contains(".") || id.contains(" ") {
            throw DecodingError.dataCorruptedError(forKey: .appleAppIDs, in: container, debugDescription: "\(id) is not TEAMID.bundle.id")
        }
    }
}
