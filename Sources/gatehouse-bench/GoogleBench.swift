import Crypto
import CryptoExtras
import Foundation
import GatehouseServer
import GatehouseTestSupport
import Hummingbird
import JWTKit
import Logging
import NIOCore

/// What the server adds to a Google sign-in beyond the provider's own round trips: ID-token
/// validation with a warm key cache, the identity lookup (or account creation) and the session,
/// through `POST /auth/google {"id_token", "nonce"}`, against a password sign-in of the same
/// server, one request at a time.
///
/// The provider's side is a discovery document and a key set served on loopback by this
/// process, fetched once; the tokens are RS256 with a 2048-bit key, as Google's are.
enum GoogleBench {
    static let client = "bench-web.apps.example"

    static func run() async throws {
        let key = try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
        let (issuer, provider) = try await serveProvider(key.publicKey)
        let signer = JWTKeyCollection()
        await signer.add(rsa: key, digestAlgorithm: .sha256, kid: "bench-key")
        let server = try await LoopbackServer.start(users: [(LoadClient.email, "Bench", LoadClient.password)]) {
            $0.google = try? ExternalProviderSettings(issuer: issuer, clientIDs: [client])
            $0.abuse.addressLimit = 1_000_000
            $0.abuse.backoffThreshold = 1_000_000
        }
        let load = LoadClient(base: server.url.absoluteString)
        func token(_ sub: String, nonce: String) async throws -> String {
            let now = Date()
            let claims = BenchClaims(
                iss: .init(value: issuer), sub: .init(value: sub), aud: .init(value: [client]), exp: .init(value: now.addingTimeInterval(600)),
                iat: .init(value: now), nonce: SHA256.hash(data: Data(nonce.utf8)).map { String(format: "%02x", $0) }.joined(),
                email: "\(sub)@example.com", email_verified: true, name: "Bench \(sub)"
            )
            return try await signer.sign(claims, kid: "bench-key")
        }
        // Warm: the key set is fetched once, and each returning subject has its account.
        let subjects = (0..<20).map { "returning-\($0)" }
        for sub in subjects { _ = try await load.postGoogle(["id_token": try await token(sub, nonce: "n"), "nonce": "n"]) }
        var google: [Double] = [], fresh: [Double] = [], password: [Double] = []
        for round in 0..<200 {
            let returning = try await token(subjects[round % subjects.count], nonce: "n\(round)")
            var start = ContinuousClock.now
            _ = try await load.postGoogle(["id_token": returning, "nonce": "n\(round)"])
            google.append((ContinuousClock.now - start).seconds)
            let new = try await token("new-\(round)-\(UUID().uuidString.prefix(6))", nonce: "m\(round)")
            start = ContinuousClock.now
            _ = try await load.postGoogle(["id_token": new, "nonce": "m\(round)"])
            fresh.append((ContinuousClock.now - start).seconds)
            if round < 40 {
                start = ContinuousClock.now
                _ = try await load.login()
                password.append((ContinuousClock.now - start).seconds)
            }
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] * 1000 }
        let known = median(google), created = median(fresh), hashed = median(password)
        print(String(format: "Google sign-in (ID token, warm keys, existing account), median of 200: %.2f ms = %.3f × a password sign-in (%.1f ms, argon2id)", known, known / hashed, hashed))
        print(String(format: "Google sign-in that creates the account, median of 200: %.2f ms = %.3f × a password sign-in", created, created / hashed))
        try await load.shutdown()
        await server.stop()
        provider.cancel()
    }

    /// Serves `/.well-known/openid-configuration` and `/jwks` for `key` on a free loopback port.
    static func serveProvider(_ key: JWTKit.Insecure.RSA.PublicKey) async throws -> (String, Task<Void, any Error>) {
        let (modulus, exponent) = try key.getKeyPrimitives()
        let router = Router()
        let ports = AsyncStream.makeStream(of: Int.self)
        let holder = IssuerHolder()
        router.get("/.well-known/openid-configuration") { _, _ in
            let issuer = holder.issuer
            return try JSONBody(["issuer": issuer, "authorization_endpoint": issuer + "/authorize", "token_endpoint": issuer + "/token", "jwks_uri": issuer + "/jwks"])
        }
        router.get("/jwks") { _, _ in
            try JSONBody(["keys": [["kty": "RSA", "kid": "bench-key", "alg": "RS256", "use": "sig",
                                    "n": modulus.base64URL, "e": exponent.base64URL]]])
        }
        var logger = Logger(label: "bench.provider")
        logger.logLevel = .critical
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { ports.continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        let task = Task { try await app.runService(gracefulShutdownSignals: []) }
        var iterator = ports.stream.makeAsyncIterator()
        let port = await iterator.next() ?? 0
        holder.issuer = "http://127.0.0.1:\(port)"
        return (holder.issuer, task)
    }
}

/// The issuer, known once the port is.
final class IssuerHolder: @unchecked Sendable {
    var issuer = ""
}

struct BenchClaims: JWTPayload {
    let iss: IssuerClaim
    let sub: SubjectClaim
    let aud: AudienceClaim
    let exp: ExpirationClaim
    let iat: IssuedAtClaim
    let nonce: String
    let email: String
    let email_verified: Bool
    let name: String

    func verify(using _: some JWTAlgorithm) throws {}
}

/// A JSON response body.
struct JSONBody: ResponseGenerator {
    let data: Data
    init(_ value: Any) throws { data = try JSONSerialization.data(withJSONObject: value) }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension Data {
    var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
