import Foundation
import GatehouseModel
import GatehouseTestSupport

/// The server's time for a passkey sign-in (issue 23): `authentication/options` plus
/// `authentication/verify`, one request at a time, with the software authenticator's signing
/// outside the timed spans; against a password sign-in of the same server.
///
/// No argon2 runs, so the expectation is under 2 ms at p50. Each request is timed on the wire
/// (``WireTimer``: last byte sent to first byte back), which leaves out the client's own work
/// in this same process; the whole round trips are printed beside it, with a refresh and an
/// empty `GET /health` on the same server for scale. Both requests carry a phone browser's
/// `User-Agent`, as a passkey sign-in does: the session's device label is read from it.
enum PasskeyBench {
    struct Options<T: Decodable>: Decodable { let options: T }

    static let browser = [
        "User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
    ]

    static func run() async throws {
        let server = try await LoopbackServer.start(users: [(LoadClient.email, "Bench", LoadClient.password)]) {
            $0.abuse.addressLimit = 1_000_000
            $0.abuse.backoffThreshold = 1_000_000
        }
        let load = LoadClient(base: server.url.absoluteString)
        let authenticator = SoftwareAuthenticator(origin: "http://127.0.0.1:0")
        let bearer = ["Authorization": "Bearer \(try await load.login().access)"]
        let creation = try JSONDecoder().decode(
            Options<PasskeyCreationOptions>.self,
            from: Data(buffer: try await load.post("/api/auth/passkeys/registration/options", json: Data(), headers: bearer, expect: 200))
        ).options
        let credential = try await authenticator.register(creation)
        _ = try await load.post("/api/auth/passkeys/registration/verify", json: try JSONEncoder().encode(["credential": credential]), headers: bearer, expect: 201)
        var passkey: [Double] = [], password: [Double] = [], optionsTimes: [Double] = [], refreshes: [Double] = [], empty: [Double] = [], onTheWire: [Double] = []
        var refreshToken = try await load.login().refresh
        for round in 0..<500 {
            var start = ContinuousClock.now
            let answer = try await load.timedPost("/api/auth/passkeys/authentication/options", json: Data(), headers: browser, expect: 200)
            var spent = (ContinuousClock.now - start).seconds
            optionsTimes.append(spent)
            let options = try JSONDecoder().decode(Options<PasskeyRequestOptions>.self, from: Data(buffer: answer.body)).options
            let assertion = try await authenticator.authenticate(options)
            let body = try JSONEncoder().encode(["credential": assertion])
            start = ContinuousClock.now
            let verified = try await load.timedPost("/api/auth/passkeys/authentication/verify", json: body, headers: browser, expect: 200)
            spent += (ContinuousClock.now - start).seconds
            passkey.append(spent)
            onTheWire.append(answer.serverTime + verified.serverTime)
            if round < 40 {
                start = ContinuousClock.now
                _ = try await load.login()
                password.append((ContinuousClock.now - start).seconds)
            }
            // A refresh: the same kind of work (a few writes, a signed token) without WebAuthn.
            start = ContinuousClock.now
            refreshToken = try await load.refresh(refreshToken)
            refreshes.append((ContinuousClock.now - start).seconds)
            start = ContinuousClock.now
            try await load.fetch("/health")
            empty.append((ContinuousClock.now - start).seconds)
        }
        let wire = onTheWire.milliseconds(at: 0.5), p50 = passkey.milliseconds(at: 0.5), hashed = password.milliseconds(at: 0.5)
        print(String(format: "Passkey sign-in (options + verify, ES256), 500 rounds: server time p50 %.2f ms (target < 2 ms: %@), p99 %.2f ms; = %.3f × a password sign-in (%.1f ms, argon2id)", wire, wire < 2 ? "met" : "missed", onTheWire.milliseconds(at: 0.99), p50 / hashed, hashed))
        print(String(format: "  round trips as the client sees them: p50 %.2f ms, p99 %.2f ms, of which options p50 %.2f ms; a refresh on the same server p50 %.2f ms; GET /health p50 %.2f ms", p50, passkey.milliseconds(at: 0.99), optionsTimes.milliseconds(at: 0.5), refreshes.milliseconds(at: 0.5), empty.milliseconds(at: 0.5)))
        try await load.shutdown()
        await server.stop()
    }
}
