import AsyncHTTPClient
import Foundation
import GatehouseCore
@testable import GatehouseDelivery
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// A provider or a delivery endpoint that refuses the connection fails at once: the person is
/// told without waiting out the request's 5 s timeout, and a delivery's own tries and pauses
/// decide how long it takes. Port 9 on loopback (discard) has nobody listening.
@Suite struct RefusedConnectionTests {
    @Test func aProviderThatRefusesTheConnectionFailsTheSignInWellBeforeItsTimeout() async throws {
        let fixture = try await Fixture()
        try await fixture.test({
            $0.google = try? ExternalProviderSettings(issuer: "http://127.0.0.1:9", clientIDs: ["web"])
            $0.publicURL = "http://localhost:8080"
        }) { client in
            let started = ContinuousClock.now
            let response = try await client.execute(uri: "/auth/google/start", method: .get)
            let waited = ContinuousClock.now - started
            #expect(String(buffer: response.body).contains("/login?signin=failed&amp;provider=google"))
            // Not a performance bound: the timeout is 5 s, and async-http-client's own retries of
            // a refused connection used all of it.
            #expect(waited < .seconds(2.5), "waited \(waited) for a refused connection")
        }
    }

    @Test func aDeliveryEndpointThatRefusesTheConnectionIsTriedThreeTimesWithItsPausesOnly() async throws {
        let delivery = HTTPDelivery()
        let started = ContinuousClock.now
        await #expect(throws: DeliveryError.self) {
            try await delivery.send({ HTTPClientRequest(url: "http://127.0.0.1:9/hook") }, provider: "webhook", logger: Logger(label: "test"))
        }
        let waited = ContinuousClock.now - started
        // Three tries with pauses of 250 and 500 ms between them, where each try had waited out
        // its 5 s timeout (15 s in all).
        #expect(waited >= .milliseconds(750), "both pauses were taken")
        #expect(waited < .seconds(4), "waited \(waited) for three refused connections")
    }
}
