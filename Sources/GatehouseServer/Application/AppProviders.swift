import Foundation
import GatehouseCore
import GatehouseOIDC
import LoginCore

/// Turns an app file's `providers` block into the registry's settings, with each client secret
/// from the environment: `GATEHOUSE_PROVIDER_<ID>_CLIENT_SECRET`, or a file named by
/// `GATEHOUSE_PROVIDER_<ID>_CLIENT_SECRET_FILE` (the id upper-cased, dashes as underscores).
///
/// Every configured provider must be listed in `signIn.methods`, and the result is in that
/// order: a provider the screen does not show is a mistake, not a silent extra door.
public enum AppProviders {
    /// The registry's settings for `app`; an ``ExternalProviderError`` names what cannot work.
    /// - Parameter folder: where a relative `privateKeyFile` is (the app file's folder).
    public static func settings(
        _ app: AppConfiguration, redirectAllowList: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
        folder: URL? = nil
    ) throws -> [ExternalProviderSettings] {
        for id in app.providers.keys.sorted() where !app.signIn.offers(SignInMethods.Method(rawValue: id)) {
            throw ExternalProviderError("providers.\(id) is configured but signIn.methods does not list \(id)")
        }
        return try app.signIn.providers.compactMap { id in
            guard let options = app.providers[id.rawValue] else { return nil }
            do {
                return try settings(
                    id, options, secret: try secret(for: id, environment), redirectAllowList: redirectAllowList, folder: folder
                )
            } catch let error as ExternalProviderError {
                throw ExternalProviderError("providers.\(id): \(error.description)")
            }
        }
    }

    /// The environment variable that holds provider `id`'s client secret.
    static func secretVariable(for id: SignInMethods.Method) -> String {
        "GATEHOUSE_PROVIDER_" + id.rawValue.uppercased().replacingOccurrences(of: "-", with: "_") + "_CLIENT_SECRET"
    }

    static func secret(for id: SignInMethods.Method, _ environment: [String: String]) throws -> String? {
        let variable = secretVariable(for: id)
        if let value = environment[variable], !value.isEmpty { return value }
        guard let path = environment[variable + "_FILE"] else { return nil }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ExternalProviderError("\(variable)_FILE: cannot read \(path)")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func settings(
        _ id: SignInMethods.Method, _ options: ProviderOptions, secret: String?, redirectAllowList: [String], folder: URL?
    ) throws -> ExternalProviderSettings {
        let builtIn = ProviderKind(builtIn: id)
        let kind: ProviderKind
        switch (builtIn, options.type) {
        case (let known?, nil): kind = known
        case (let known?, let type?):
            guard type == known.rawValue else { throw ExternalProviderError("\(id) is built in; its type is \(known.rawValue)") }
            kind = known
        case (nil, "oidc"): kind = .oidc
        case (nil, _): throw ExternalProviderError("an id of the app's own needs \"type\": \"oidc\" and an issuer")
        }
        if (options.apple != nil) != (kind == .apple) {
            throw ExternalProviderError(kind == .apple ? "Apple needs servicesId, teamId, keyId and privateKeyFile" : "servicesId, bundleIds, teamId, keyId and privateKeyFile are Apple's")
        }
        if kind == .apple, !options.clientIDs.isEmpty { throw ExternalProviderError("Apple's client ids are servicesId and bundleIds") }
        let unused: [(String, Bool)] = [
            ("baseURL", options.baseURL != nil && kind != .github), ("tenant", options.tenant != nil && kind != .microsoft),
            ("authority", options.authority != nil && kind != .microsoft), ("hostedDomain", options.hostedDomain != nil && kind != .google),
            ("issuer", options.issuer != nil && (kind == .github || kind == .microsoft)),
            ("trustEmailVerified", options.trustEmailVerified != nil && kind == .apple),
        ]
        if let (key, _) = unused.first(where: \.1) { throw ExternalProviderError("\(key) does not apply to \(kind.rawValue)") }
        if kind != .google, kind != .apple, secret == nil {
            throw ExternalProviderError("the client secret is missing: set \(secretVariable(for: id)) (or \(secretVariable(for: id))_FILE)")
        }
        switch kind {
        case .apple:
            guard let apple = options.apple else { throw ExternalProviderError("Apple needs its key") }
            let path = apple.privateKeyFile.hasPrefix("/") || folder == nil
                ? apple.privateKeyFile : folder!.appendingPathComponent(apple.privateKeyFile).path
            guard let pem = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw ExternalProviderError("cannot read the Apple key file \(path)")
            }
            _ = try AppleClientSecret.privateKey(pem)
            return try .apple(
                servicesID: apple.servicesID, bundleIDs: apple.bundleIDs,
                key: AppleSigningKey(teamID: apple.teamID, keyID: apple.keyID, privateKeyPEM: pem),
                issuer: options.issuer ?? ExternalProviderSettings.appleIssuer, label: options.label, redirectAllowList: redirectAllowList
            )
        case .microsoft:
            return try .microsoft(
                tenant: options.tenant ?? "common", authority: options.authority ?? ExternalProviderSettings.microsoftAuthority,
                clientIDs: options.clientIDs, clientSecret: secret, label: options.label, trustEmailVerified: options.trustEmailVerified,
                redirectAllowList: redirectAllowList
            )
        case .github:
            return try ExternalProviderSettings(
                id: id, kind: .github, issuer: options.baseURL ?? "https://github.com", clientIDs: options.clientIDs, clientSecret: secret,
                redirectAllowList: redirectAllowList, label: options.label, trustEmailVerified: options.trustEmailVerified
            )
        case .google, .oidc:
            guard let issuer = options.issuer ?? (kind == .google ? ExternalProviderSettings.googleIssuer : nil) else {
                throw ExternalProviderError("an OpenID Connect provider needs its issuer")
            }
            return try ExternalProviderSettings(
                id: id, kind: kind, issuer: issuer, clientIDs: options.clientIDs, clientSecret: secret, hostedDomain: options.hostedDomain,
                redirectAllowList: redirectAllowList, label: options.label, trustEmailVerified: options.trustEmailVerified
            )
        }
    }
}
