import Foundation
import GatehouseCore
import GatehouseTestSupport

/// The server's time for a second factor's step-up (issue 41): `POST /api/auth/mfa/challenge`
/// plus `POST /api/auth/mfa/verify` with an authenticator app's code, one request at a time.
///
/// A code works once per 30-second step, so the server runs on a clock the benchmark moves 30 s
/// before each round; each step-up's new access token signs the next round in. Each request is
/// timed on the wire (``WireTimer``), as the passkey phase is; no argon2 runs in the timed spans.
enum SecondFactorBench {
    struct Enrolment: Decodable {
        struct Factor: Decodable { let id: String }
        let factor: Factor
        let secret: String
    }

    struct Challenge: Decodable { let challenge_id: String }
    struct Grant: Decodable { let access_token: String }

    static func run(rounds: Int = 300) async throws {
        let clock = TestClock(Date())
        let server = try await LoopbackServer.start(users: [(LoadClient.email, "Bench", LoadClient.password)]) {
            $0.clock = { clock.now }
            $0.mfa = MFAPolicy()
            $0.abuse.addressLimit = 1_000_000
            $0.abuse.backoffThreshold = 1_000_000
        }
        let load = LoadClient(base: server.url.absoluteString)
        func bearer(_ token: String) -> [String: String] { ["Authorization": "Bearer \(token)"] }
        let first = try await load.login().access
        let enrolment = try JSONDecoder().decode(Enrolment.self, from: Data(buffer: try await load.post(
            "/api/auth/mfa/factors", json: try JSONEncoder().encode(["friendly_name": "Bench"]), headers: bearer(first), expect: 201
        )))
        guard let secret = Base32.decode(enrolment.secret) else { throw LoadClient.Failure(description: "the enrolment's secret is not base32") }
        let totp = TOTP(secret: secret)
        var access = try JSONDecoder().decode(Grant.self, from: Data(buffer: try await load.post(
            "/api/auth/mfa/factors/\(enrolment.factor.id)/verify", json: try JSONEncoder().encode(["code": totp.code(forStep: totp.step(at: clock.now))]),
            headers: bearer(first), expect: 200
        ))).access_token
        var both: [Double] = [], verifies: [Double] = [], challenges: [Double] = []
        for _ in 0..<rounds {
            clock.advance(by: 30)
            let challenge = try await load.timedPost(
                "/api/auth/mfa/challenge", json: try JSONEncoder().encode(["factor_id": enrolment.factor.id]), headers: bearer(access), expect: 200
            )
            let id = try JSONDecoder().decode(Challenge.self, from: Data(buffer: challenge.body)).challenge_id
            let body = try JSONEncoder().encode(["challenge_id": id, "code": totp.code(forStep: totp.step(at: clock.now))])
            let verified = try await load.timedPost("/api/auth/mfa/verify", json: body, headers: bearer(access), expect: 200)
            access = try JSONDecoder().decode(Grant.self, from: Data(buffer: verified.body)).access_token
            challenges.append(challenge.serverTime)
            verifies.append(verified.serverTime)
            both.append(challenge.serverTime + verified.serverTime)
        }
        print(String(
            format: "Second-factor step-up (challenge + verify, TOTP), %d rounds: server time p50 %.2f ms, p99 %.2f ms; verify alone p50 %.2f ms, the challenge p50 %.2f ms",
            rounds, both.milliseconds(at: 0.5), both.milliseconds(at: 0.99), verifies.milliseconds(at: 0.5), challenges.milliseconds(at: 0.5)
        ))
        try await load.shutdown()
        await server.stop()
    }
}
