import AsyncHTTPClient
import Foundation
import GatehouseCore
import JWTKit
import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// Talks to one OpenID provider: its discovery document, its signing keys and its token endpoint.
///
/// Discovery and the key set are cached as long as the provider's `Cache-Control` allows.
/// A token signed with a key the cache does not know refetches the key set, at most once a
/// minute; until then such tokens fail. The cache holds the provider's public data only, so each
/// instance keeps its own. Every failure to reach the provider is
/// ``ProviderFailure/providerUnavailable``; a refused code is ``ProviderFailure/invalidCode``.
package actor OIDCProviderClient {
    package let settings: ExternalProviderSettings
    package let logger: Logger
    /// Seconds between refetches for an unknown key id.
    package let unknownKeyInterval: TimeInterval = 60
    private let timeout: TimeAmount = .seconds(5)
    private let maximumDocumentBytes = 256 * 1024

    private var discovery: (document: OIDCDiscovery, expires: Date)?
    private var keys: (collection: JWTKeyCollection, kids: Set<String>, expires: Date)?
    private var lastUnknownKeyFetch: Date?
    /// How many times the key set was fetched (for logs and tests).
    private(set) var keySetFetches = 0

    /// Apple's signed client secret, where the provider is Apple.
    let appleSecret: AppleClientSecret?

    package init(settings: ExternalProviderSettings, logger: Logger, appleSecret: AppleClientSecret? = nil) {
        self.settings = settings
        self.logger = logger
        self.appleSecret = appleSecret
    }

    /// The provider's endpoints, from cache or fetched.
    package func metadata(now: Date) async throws -> OIDCDiscovery {
        if let discovery, discovery.expires > now { return discovery.document }
        let (data, lifetime) = try await get(settings.issuer + "/.well-known/openid-configuration")
        guard let document = try? JSONDecoder().decode(OIDCDiscovery.self, from: data) else {
            throw unavailable("discovery document is not valid")
        }
        // Microsoft's multi-tenant and domain-named tenants name their issuer by tenant id
        // (or `{tenantid}`); the token's `iss` is checked against it (``IDTokenVerifier``).
        let sameIssuer = document.issuer == settings.issuer
            || (settings.kind == .microsoft && settings.origin.map { document.issuer.hasPrefix($0 + "/") } == true)
        guard sameIssuer else { throw unavailable("discovery names another issuer") }
        discovery = (document, now.addingTimeInterval(lifetime))
        return document
    }

    /// The keys to verify a token signed with `kid`; refetched when stale or when `kid` is new
    /// (at most once per ``unknownKeyInterval``). Throws when the provider has no such key.
    package func keys(for kid: String, now: Date) async throws -> JWTKeyCollection {
        if let keys, keys.expires > now, keys.kids.contains(kid) { return keys.collection }
        let stale = keys.map { $0.expires <= now } ?? true
        if !stale {
            if let last = lastUnknownKeyFetch, now.timeIntervalSince(last) < unknownKeyInterval {
                throw ProviderFailure.invalidToken("unknown signing key")
            }
            lastUnknownKeyFetch = now
        }
        try await fetchKeys(now: now)
        guard let keys, keys.kids.contains(kid) else { throw ProviderFailure.invalidToken("unknown signing key") }
        return keys.collection
    }

    private func fetchKeys(now: Date) async throws {
        let document = try await metadata(now: now)
        let (data, lifetime) = try await get(document.jwksURI)
        guard let set = try? JSONDecoder().decode(JWKS.self, from: data) else { throw unavailable("key set is not valid") }
        // RS256 and ES256 only: other keys are never used, whatever a token's header says.
        let usable = set.keys.filter { key in
            guard key.keyIdentifier != nil else { return false }
            switch key.keyType {
            case .rsa: return key.algorithm == nil || key.algorithm == .rs256
            case .ecdsa: return (key.algorithm == nil || key.algorithm == .es256) && key.curve == .ecdsa(.p256)
            default: return false
            }
        }
        let collection = JWTKeyCollection()
        var kids: Set<String> = []
        for var key in usable {
            key.algorithm = key.keyType == JWK.KeyType.rsa ? JWK.Algorithm.rs256 : JWK.Algorithm.es256
            guard (try? await collection.add(jwk: key)) != nil, let kid = key.keyIdentifier?.string else { continue }
            kids.insert(kid)
        }
        keySetFetches += 1
        keys = (collection, kids, now.addingTimeInterval(lifetime))
        logger.info("Provider keys fetched", metadata: ["oidc.issuer": "\(settings.issuer)", "keys": "\(kids.count)"])
    }

    /// Exchanges an authorization code (with its PKCE verifier) for the provider's tokens.
    ///
    /// The client authenticates as the provider's metadata says: HTTP Basic unless only
    /// `client_secret_post` is offered (RFC 6749 §2.3.1); a provider without discovery
    /// (GitHub) names its token endpoint and takes the secret in the form.
    package func exchange(
        code: String, redirectURI: String, verifier: String?, now: Date, tokenEndpoint: String? = nil
    ) async throws -> OIDCTokenResponse {
        let endpoint: String
        let secretInForm: Bool
        if let tokenEndpoint {
            (endpoint, secretInForm) = (tokenEndpoint, true)
        } else {
            let document = try await metadata(now: now)
            (endpoint, secretInForm) = (document.tokenEndpoint, document.wantsSecretInForm)
        }
        var form = ["grant_type": "authorization_code", "code": code, "redirect_uri": redirectURI]
        if let verifier { form["code_verifier"] = verifier }
        let (status, data) = try await send(try await authenticated(form, to: endpoint, secretInForm: secretInForm, now: now))
        let refusal = try? JSONDecoder().decode(OIDCErrorResponse.self, from: data)
        // GitHub refuses a code with HTTP 200 and an `error` field.
        if (400..<500).contains(status) || (status == 200 && refusal != nil) {
            let error = refusal?.error ?? "HTTP \(status)"
            logger.notice("Provider refused the code", metadata: ["oidc.issuer": "\(settings.issuer)", "oidc.error": "\(error)"])
            throw ProviderFailure.invalidCode
        }
        guard status == 200, let tokens = try? JSONDecoder().decode(OIDCTokenResponse.self, from: data) else {
            throw unavailable("token endpoint answered HTTP \(status)")
        }
        return tokens
    }

    /// Revokes a refresh token (RFC 7009) where the discovery document names an endpoint;
    /// `false` where it names none. A refusal or an unreachable endpoint throws.
    package func revoke(refreshToken: String, now: Date) async throws -> Bool {
        let document = try await metadata(now: now)
        guard let endpoint = document.revocationEndpoint else { return false }
        let form = ["token": refreshToken, "token_type_hint": "refresh_token"]
        let (status, _) = try await send(try await authenticated(form, to: endpoint, secretInForm: document.wantsSecretInForm, now: now))
        guard status == 200 else { throw unavailable("revocation endpoint answered HTTP \(status)") }
        return true
    }

    /// A form POST to the provider with the client's id and secret, in the form or as HTTP Basic.
    private func authenticated(_ fields: [String: String], to endpoint: String, secretInForm: Bool, now: Date) async throws
        -> HTTPClientRequest {
        let clientID = settings.clientIDs[0]
        var form = fields
        form["client_id"] = clientID
        var request = HTTPClientRequest(url: endpoint)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        let secret = if let appleSecret { try await appleSecret.current(now: now) } else { settings.clientSecret }
        if let secret {
            if secretInForm {
                form["client_secret"] = secret
            } else {
                let pair = FormEncoding.component(clientID) + ":" + FormEncoding.component(secret)
                request.headers.add(name: "Authorization", value: "Basic " + Data(pair.utf8).base64EncodedString())
            }
        }
        request.body = .bytes(ByteBuffer(string: FormEncoding.encode(form)))
        return request
    }

    /// A JSON document from the provider, with an access token where the API needs one.
    package func document(_ url: String, bearer: String? = nil) async throws -> Data {
        try await get(url, bearer: bearer).0
    }

    private func get(_ url: String, bearer: String? = nil) async throws -> (Data, TimeInterval) {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Gatehouse")
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer " + bearer) }
        let response: HTTPClientResponse
        do {
            response = try await HTTPClient.providers.execute(request, timeout: timeout)
        } catch {
            throw unavailable("\(url) unreachable: \(type(of: error))")
        }
        let body = try? await response.body.collect(upTo: maximumDocumentBytes)
        guard response.status == .ok, let body else { throw unavailable("\(url) answered HTTP \(response.status.code)") }
        return (Data(buffer: body), CacheLifetime.seconds(fromCacheControl: response.headers.first(name: "Cache-Control")))
    }

    private func send(_ request: HTTPClientRequest) async throws -> (Int, Data) {
        do {
            let response = try await HTTPClient.providers.execute(request, timeout: timeout)
            let body = try await response.body.collect(upTo: maximumDocumentBytes)
            return (Int(response.status.code), Data(buffer: body))
        } catch {
            throw unavailable("token endpoint unreachable: \(type(of: error))")
        }
    }

    private func unavailable(_ reason: String) -> ProviderFailure {
        logger.warning("Provider unavailable", metadata: ["oidc.issuer": "\(settings.issuer)", "reason": "\(reason)"])
        return .providerUnavailable
    }
}

/// `application/x-www-form-urlencoded`, as token endpoints expect.
package enum FormEncoding {
    package static func encode(_ fields: [String: String]) -> String {
        fields.sorted { $0.key < $1.key }.map { key, value in component(key) + "=" + component(value) }.joined(separator: "&")
    }

    /// One name or value, percent-encoded but for RFC 3986's unreserved characters.
    package static func component(_ text: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
