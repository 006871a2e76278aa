import Crypto
import Foundation
import GatehouseCore
import GatehouseTestSupport

/// What the server adds to a Google sign-in beyond the provider's own round trips: ID-token
/// validation with a warm key cache, the identity lookup (or account creation) and the session,
/// through `POST /auth/google {"id_token", "nonce"}`, against a password sign-in of the same
/// server, one request at a time.
///
/// The provider's side is ``LocalKeyProvider``: a discovery document and a key set on loopback,
/// fetched once; the tokens are RS256 with a 2048-bit key, as Google's are.
enum GoogleBench {
    static let client = "bench-web.apps.example"

    static func run() async throws {
        let provider = try await LocalKeyProvider.start()
        let server = try await LoopbackServer.start(users: [(LoadClient.email, "Bench", LoadClient.password)]) {
            $0.google = try? ExternalProviderSettings(issuer: provider.issuer, clientIDs: [client])
            $0.abuse.addressLimit = 1_000_000
            $0.abuse.backoffThreshold = 1_000_000
        }
        let load = LoadClient(base: server.url.absoluteString)
        func token(_ sub: String, nonce: String) async throws -> String {
            let hashed = SHA256.hash(data: Data(nonce.utf8)).map { String(format: "%02x", $0) }.joined()
            return try await provider.token(LocalIDToken(iss: provider.issuer, sub: sub, aud: [client], nonce: hashed))
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
            let new = try await token("new-\(round)-\(UUID().uuidString.prefix(6).lowercased())", nonce: "m\(round)")
            start = ContinuousClock.now
            _ = try await load.postGoogle(["id_token": new, "nonce": "m\(round)"])
            fresh.append((ContinuousClock.now - start).seconds)
            if round < 40 {
                start = ContinuousClock.now
                _ = try await load.login()
                password.append((ContinuousClock.now - start).seconds)
            }
        }
        let known = google.milliseconds(at: 0.5), created = fresh.milliseconds(at: 0.5), hashed = password.milliseconds(at: 0.5)
        print(String(format: "Google sign-in (ID token, warm keys, existing account), median of 200: %.2f ms = %.3f × a password sign-in (%.1f ms, argon2id)", known, known / hashed, hashed))
        print(String(format: "Google sign-in that creates the account, median of 200: %.2f ms = %.3f × a password sign-in", created, created / hashed))
        try await load.shutdown()
        await server.stop()
        provider.stop()
    }
}
