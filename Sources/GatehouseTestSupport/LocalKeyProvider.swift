import Crypto
import CryptoExtras
import Foundation
import Hummingbird
import JWTKit
import Logging

/// An issuer that signs whatever ID token a test or the benchmark asks for: a discovery
/// document and an RS256 key set on loopback, and tokens signed with that key.
///
/// oidc-provider-mock only issues well-formed tokens; this makes the claims it cannot (an
/// audience or `azp` of someone else, `iat` in the future, a hosted domain), so the verifier's
/// own checks can each be seen to refuse. The key is 2048-bit RSA, as Google's are.
public final class LocalKeyProvider: Sendable {
    public let issuer: String
    public static let kid = "local-key"
    /// The P-256 key's id: ``token(_:kid:)`` with it signs ES256.
    public static let ecKid = "local-ec"
    let signer: JWTKeyCollection
    let server: Task<Void, any Error>
    /// Codes ``issue(code:token:)`` registered, each answered once by `POST /token`.
    let codes: CodeBox

    public static func start() async throws -> LocalKeyProvider {
        let key = try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
        let signer = JWTKeyCollection()
        await signer.add(rsa: key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
        let ec = ES256PrivateKey()
        await signer.add(ecdsa: ec, kid: JWKIdentifier(string: ecKid))
        let (modulus, exponent) = try key.publicKey.getKeyPrimitives()
        let ports = AsyncStream.makeStream(of: Int.self)
        let issuer = IssuerBox()
        let codes = CodeBox()
        let router = Router()
        // The token endpoint: a registered code, once, for its ID token.
        router.post("/token") { request, context in
            let body = try await request.body.collect(upTo: 64 * 1024)
            let form = URLComponents(string: "?" + String(buffer: body))?.queryItems ?? []
            guard let code = form.first(where: { $0.name == "code" })?.value, let token = codes.take(code) else {
                return Response(status: .badRequest, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"error":"invalid_grant"}"#)))
            }
            return try JSONDocument(["id_token": token, "token_type": "Bearer"]).response(from: request, context: context)
        }
        router.get("/.well-known/openid-configuration") { _, _ in
            let base = issuer.value
            return JSONDocument([
                "issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token", "jwks_uri": base + "/jwks",
            ])
        }
        let jwk = ["kty": "RSA", "kid": kid, "alg": "RS256", "use": "sig", "n": modulus.base64URL, "e": exponent.base64URL]
        let ecJWK = ["kty": "EC", "kid": ecKid, "alg": "ES256", "use": "sig", "crv": "P-256", "x": ec.parameters?.x ?? "", "y": ec.parameters?.y ?? ""]
        router.get("/jwks") { _, _ in JSONDocument(["keys": [jwk, ecJWK]]) }
        // Microsoft's multi-tenant endpoints: their issuer names `{tenantid}`.
        for tenant in ["common", "organizations", "consumers"] {
            router.get("/\(tenant)/v2.0/.well-known/openid-configuration") { _, _ in
                let base = issuer.value
                return JSONDocument([
                    "issuer": base + "/{tenantid}/v2.0", "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
                    "jwks_uri": base + "/jwks",
                ])
            }
        }
        var logger = Logger(label: "local-key-provider")
        logger.logLevel = .critical
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { ports.continuation.yield($0.localAddress?.port ?? 0) }, logger: logger
        )
        let server = Task { try await app.runService(gracefulShutdownSignals: []) }
        var iterator = ports.stream.makeAsyncIterator()
        issuer.value = "http://127.0.0.1:\(await iterator.next() ?? 0)"
        return LocalKeyProvider(issuer: issuer.value, signer: signer, server: server, codes: codes)
    }

    init(issuer: String, signer: JWTKeyCollection, server: Task<Void, any Error>, codes: CodeBox) {
        self.issuer = issuer
        self.signer = signer
        self.server = server
        self.codes = codes
    }

    /// Registers `code`: the token endpoint answers it once with `token`.
    public func issue(code: String, token: String) {
        codes.put(code, token)
    }

    /// Signs an ID token with these claims (nil ones are left out).
    public func token(_ claims: LocalIDToken, kid: String = LocalKeyProvider.kid) async throws -> String {
        try await signer.sign(claims, kid: JWKIdentifier(string: kid))
    }

    public func stop() {
        server.cancel()
    }
}

/// The claims of a token ``LocalKeyProvider`` signs.
public struct LocalIDToken: JWTPayload {
    public var iss: String
    public var sub: String
    public var aud: [String]
    public var exp: Date
    public var iat: Date
    public var azp: String?
    public var nonce: String?
    public var email: String?
    public var email_verified: Bool?
    public var name: String?
    public var hd: String?
    /// Microsoft's tenant id.
    public var tid: String?
    /// Apple's spelling of `email_verified`: the string `"true"` or `"false"` (replaces the boolean).
    public var emailVerifiedText: String?

    public init(iss: String, sub: String, aud: [String], now: Date = Date(), lifetime: TimeInterval = 600, nonce: String? = nil) {
        self.iss = iss
        self.sub = sub
        self.aud = aud
        exp = now.addingTimeInterval(lifetime)
        iat = now
        self.nonce = nonce
        email = "\(sub)@example.com"
        email_verified = true
        name = "Local \(sub)"
    }

    enum CodingKeys: String, CodingKey { case iss, sub, aud, exp, iat, azp, nonce, email, email_verified, name, hd, tid }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(iss, forKey: .iss)
        try container.encode(sub, forKey: .sub)
        try container.encode(aud, forKey: .aud)
        try container.encode(Int(exp.timeIntervalSince1970), forKey: .exp)
        try container.encode(Int(iat.timeIntervalSince1970), forKey: .iat)
        try container.encodeIfPresent(azp, forKey: .azp)
        try container.encodeIfPresent(nonce, forKey: .nonce)
        try container.encodeIfPresent(email, forKey: .email)
        if let emailVerifiedText {
            try container.encode(emailVerifiedText, forKey: .email_verified)
        } else {
            try container.encodeIfPresent(email_verified, forKey: .email_verified)
        }
        try container.encodeIfPresent(tid, forKey: .tid)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(hd, forKey: .hd)
    }

    public func verify(using _: some JWTAlgorithm) throws {}
}

/// The codes the token endpoint answers, each once.
final class CodeBox: @unchecked Sendable {
    private let lock = NSLock()
    private var tokens: [String: String] = [:]

    func put(_ code: String, _ token: String) {
        lock.withLock { tokens[code] = token }
    }

    func take(_ code: String) -> String? {
        lock.withLock { tokens.removeValue(forKey: code) }
    }
}

/// The issuer's address, known once the port is.
final class IssuerBox: @unchecked Sendable {
    var value = ""
}

/// A JSON response.
struct JSONDocument: ResponseGenerator {
    let value: [String: any Sendable]
    init(_ value: [String: any Sendable]) { self.value = value }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = try JSONSerialization.data(withJSONObject: value)
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension Data {
    var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
