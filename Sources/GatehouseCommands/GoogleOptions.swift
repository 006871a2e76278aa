import ArgumentParser
import Foundation
import GatehouseCore
import GatehouseServer

/// `serve`'s Sign in with Google (or any OpenID Connect provider).
///
/// Google is on when at least one client id is given. Each option has an environment variable
/// for deployments that configure by environment: `GATEHOUSE_GOOGLE_ISSUER`,
/// `GATEHOUSE_GOOGLE_CLIENT_IDS` (comma-separated) and `GATEHOUSE_GOOGLE_CLIENT_SECRET`; the
/// secret is best given that way (arguments can be listed by other users of the machine).
public struct GoogleOptions: ParsableArguments {
    public init() {}

    @Option(help: "The OpenID provider's issuer (default: GATEHOUSE_GOOGLE_ISSUER, else Google's; plain http only on loopback).")
    var googleIssuer: String?

    @Option(help: "An OAuth client id whose ID tokens are accepted (repeat for web, iOS, Android; or GATEHOUSE_GOOGLE_CLIENT_IDS, comma-separated); the first is the web flow's.")
    var googleClientId: [String] = []

    @Option(help: "The web client's secret (or GATEHOUSE_GOOGLE_CLIENT_SECRET).")
    var googleClientSecret: String?

    @Option(help: "Only accept Google Workspace accounts of this domain (the hd claim).")
    var googleHostedDomain: String?

    @Option(help: "Seconds of clock difference allowed on ID tokens' exp and iat (0 to 60, default 60).")
    var googleClockLeeway: Double = 60

    @Option(help: "An address apps may be returned to after a provider sign-in (repeatable; a loopback URL matches any port).")
    var allowRedirect: [String] = []

    @Option(help: "The address people reach this server at: mail links point here, and each provider returns to <public URL>/auth/<id>/callback (default: the listening address).")
    var publicUrl: String?

    public func validate() throws {
        if let publicUrl {
            guard let url = URL(string: publicUrl), url.scheme == "http" || url.scheme == "https", url.host != nil, url.query == nil else {
                throw ValidationError("--public-url must be an http(s) URL, not \(publicUrl)")
            }
        }
        _ = try settings()
    }

    /// The provider these options describe; `nil` without a client id.
    func settings() throws -> ExternalProviderSettings? {
        let environment = ProcessInfo.processInfo.environment
        let clientIDs = googleClientId.isEmpty
            ? (environment["GATEHOUSE_GOOGLE_CLIENT_IDS"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            : googleClientId
        guard !clientIDs.isEmpty else {
            if googleIssuer != nil || googleClientSecret != nil || googleHostedDomain != nil {
                throw ValidationError("Google options need --google-client-id")
            }
            return nil
        }
        let secret = googleClientSecret ?? environment["GATEHOUSE_GOOGLE_CLIENT_SECRET"]
        let issuer = googleIssuer ?? environment["GATEHOUSE_GOOGLE_ISSUER"] ?? ExternalProviderSettings.googleIssuer
        do {
            return try ExternalProviderSettings(
                issuer: issuer, clientIDs: clientIDs, clientSecret: secret, hostedDomain: googleHostedDomain,
                leeway: googleClockLeeway, redirectAllowList: allowRedirect
            )
        } catch let error as ExternalProviderError {
            throw ValidationError("--google-issuer/--google-client-id: \(error.description)")
        }
    }

    func apply(to configuration: inout GatehouseConfiguration) throws {
        configuration.google = try settings()
        configuration.publicURL = publicUrl
    }
}
