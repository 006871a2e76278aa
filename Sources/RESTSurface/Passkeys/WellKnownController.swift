import Foundation
import GatehouseCore
import GatehouseHTTP
import Hummingbird
import LoginCore

/// The files native apps check before they use the site's passkeys, from the app file's
/// `passkeys`: Apple's `apple-app-site-association` (webcredentials) and Android's
/// `assetlinks.json` (`get_login_creds`). Without apps listed, each is 404.
package struct WellKnownController {
    package let options: PasskeyOptions

    package init(options: PasskeyOptions) {
        self.options = options
    }

    package func addRoutes(to router: Router<GatehouseRequestContext>) {
        router.get("/.well-known/apple-app-site-association") { _, _ in
            guard !options.appleAppIDs.isEmpty else { throw GatehouseError.notFound }
            return try Self.json(["webcredentials": ["apps": options.appleAppIDs]])
        }
        router.get("/.well-known/assetlinks.json") { _, _ in
            guard !options.androidApps.isEmpty else { throw GatehouseError.notFound }
            return try Self.json(options.androidApps.map(AssetLink.init))
        }
    }

    /// JSON that clients may cache for an hour (the platforms fetch it through their own caches).
    static func json(_ value: some Encodable) throws -> Response {
        var response = try JSONBody.response(value)
        response.headers[.contentType] = "application/json"
        response.headers[.cacheControl] = "public, max-age=3600"
        return response
    }

    /// One statement of Android's Digital Asset Links.
    struct AssetLink: Encodable {
        let relation = ["delegate_permission/common.get_login_creds"]
        let target: Target

        init(_ app: PasskeyOptions.AndroidApp) {
            target = Target(packageName: app.package, sha256CertFingerprints: app.sha256CertFingerprints)
        }

        struct Target: Encodable {
            let namespace = "android_app"
            let packageName: String
            let sha256CertFingerprints: [String]

            enum CodingKeys: String, CodingKey {
                case namespace
                case packageName = "package_name"
                case sha256CertFingerprints = "sha256_cert_fingerprints"
            }
        }
    }
}
