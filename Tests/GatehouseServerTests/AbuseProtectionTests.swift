import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseServer
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// Issue 9's limits on REST: per address, per account and source with back-off, per account
/// across addresses, identical for unknown accounts, and blind to spoofed headers.
@Suite struct AbuseProtectionTests {
    /// A server that believes `X-Forwarded-For` from loopback, as behind a local proxy.
    static func behindProxy(_ configuration: inout GatehouseConfiguration) {
        configuration.trustedProxies = try! TrustedProxies(["127.0.0.0/8", "::1"])
    }

    @Test func bruteForceOnOneAccountBacksOffAndRefusesEvenTheRightPassword() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test { client in
            for attempt in 1...5 {
                let response = try await client.login(Fixture.email, "wrong-\(attempt)")
                #expect(response.status == .unauthorized, "attempt \(attempt)")
            }
            let held = try await client.login(Fixture.email, Fixture.password)
            #expect(held.status == .tooManyRequests)
            #expect(held.headers[.retryAfter] == "1")
            #expect(held.headers[.cacheControl] == "no-store")
            #expect(try held.decoded(ThrottledBody.self) == ThrottledBody(
                error: "rate_limited", message: "Too many attempts. Please try again in 1 seconds.", retry_after: 1
            ))
            fixture.clock.advance(by: 1)
            let status1 = try await client.login(Fixture.email, "wrong-6").status
            #expect(status1 == .unauthorized)
            // The sixth failure doubles the wait.
            let doubled = try await client.login(Fixture.email, Fixture.password)
            #expect(doubled.headers[.retryAfter] == "2")
            fixture.clock.advance(by: 2)
            let status2 = try await client.login().status
            #expect(status2 == .ok, "the wait is over")
            let status3 = try await client.login(Fixture.email, "wrong-7").status
            #expect(status3 == .unauthorized, "a success clears the streak")
        }
    }

    @Test func sixtyWrongPasswordsEndInTheFifteenMinuteCap() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test { client in
            // An attacker who waits out every back-off: 60 wrong passwords checked.
            var checked = 0, held = 0
            while checked < 60 {
                let response = try await client.login(Fixture.email, "wrong-\(checked)")
                if response.status == .unauthorized {
                    checked += 1
                } else {
                    #expect(response.status == .tooManyRequests)
                    held += 1
                    fixture.clock.advance(by: Double(response.headers[.retryAfter] ?? "") ?? 0)
                }
            }
            #expect(held == 55, "every check after the fifth had to wait first")
            let right = try await client.login()
            #expect(right.status == .tooManyRequests, "the right password is not even checked")
            #expect(right.headers[.retryAfter] == "900")
        }
    }

    @Test func throttledRequestsAreRefusedBeforeAnyHashing() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test({
            // No hashing thread will take work: any request that reaches the hasher gets 503.
            $0.hashing = HashingLimits(queueDepth: 0)
            $0.abuse.addressLimit = 2
        }) { client in
            let status4 = try await client.login().status
            #expect(status4 == .serviceUnavailable)
            let busy = try await client.login()
            #expect(busy.status == .serviceUnavailable)
            #expect(busy.headers[.retryAfter] == "1")
            #expect(busy.errorBody?.error == "server_busy")
            let limited = try await client.login()
            #expect(limited.status == .tooManyRequests, "the limiter answered; the hasher was never asked")
        }
    }

    @Test func perAddressLimitCountsEveryAttempt() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test({ $0.abuse.addressLimit = 3 }) { client in
            let status5 = try await client.login().status
            #expect(status5 == .ok)
            let status6 = try await client.login("other@example.com", "whatever-1").status
            #expect(status6 == .unauthorized)
            let status7 = try await client.login("third@example.com", "whatever-2").status
            #expect(status7 == .unauthorized)
            let limited = try await client.login()
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers[.retryAfter] == "300")
            fixture.clock.advance(by: 300)
            let status8 = try await client.login().status
            #expect(status8 == .ok, "a new window")
        }
    }

    @Test func failuresFromOneAddressNeverLockTheOwnerOutElsewhere() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.behindProxy, mode: .live) { client in
            for attempt in 1...60 {
                let response = try await client.login(Fixture.email, "wrong-\(attempt)", from: "203.0.113.66")
                if let wait = response.headers[.retryAfter].flatMap(Double.init) { fixture.clock.advance(by: min(wait, 60)) }
            }
            let status9 = try await client.login(Fixture.email, Fixture.password, from: "203.0.113.66").status
            #expect(status9 == .tooManyRequests)
            let status10 = try await client.login(Fixture.email, Fixture.password, from: "198.51.100.7").status
            #expect(status10 == .ok)
        }
    }

    @Test func accountWideBlockNeedsManyAddressesAndSparesKnownDevices() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test({ Self.behindProxy(&$0); $0.abuse.accountFailuresPerHour = 12 }, mode: .live) { client in
            let known = try await client.login(Fixture.email, Fixture.password, from: "198.51.100.7")
            let device = try #require(known.headers[.gatehouseDevice])
            // Four failures from each of three addresses: each address stays under its back-off.
            for address in ["203.0.113.1", "203.0.113.2", "203.0.113.3"] {
                for attempt in 1...4 {
                    let status11 = try await client.login(Fixture.email, "wrong-\(attempt)", from: address).status
                    #expect(status11 == .unauthorized)
                }
            }
            let stranger = try await client.login(Fixture.email, Fixture.password, from: "192.0.2.99")
            #expect(stranger.status == .tooManyRequests, "12 failures an hour hold every unknown device")
            #expect(Int(stranger.headers[.retryAfter] ?? "") ?? 0 > 3000)
            let owner = try await client.login(Fixture.email, Fixture.password, from: "192.0.2.99", device: device)
            #expect(owner.status == .ok, "a device that signed in before keeps its own budget")
            let forged = try await client.login(Fixture.email, Fixture.password, from: "192.0.2.99", device: device + "x")
            #expect(forged.status == .tooManyRequests, "a tampered device token is no device token")
        }
    }

    @Test func unknownAndExistingAccountsAreThrottledIdentically() async throws {
        func attack(_ email: String) async throws -> [String] {
            let fixture = try await Fixture(argon2: Fixture.cheap)
            return try await fixture.test { client in
                var seen: [String] = []
                for attempt in 1...9 {
                    let response = try await client.login(email, "wrong-\(attempt)")
                    seen.append("\(response.status.code) \(response.headers[.retryAfter] ?? "-") \(response.text)")
                    if attempt % 3 == 0 { fixture.clock.advance(by: 1) }
                }
                return seen
            }
        }
        let existing = try await attack(Fixture.email)
        let unknown = try await attack("nobody@example.com")
        #expect(existing == unknown)
        #expect(existing.contains { $0.hasPrefix("429 ") }, "the sequence reaches the limiter")
    }

    @Test func spoofedForwardedForIsIgnoredWithoutATrustedProxy() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test({ $0.abuse.addressLimit = 3 }, mode: .live) { client in
            for index in 1...3 {
                let status12 = try await client.login(Fixture.email, Fixture.password, from: "10.1.1.\(index)").status
                #expect(status12 == .ok)
            }
            let status13 = try await client.login(Fixture.email, Fixture.password, from: "10.1.1.4").status
            #expect(status13 == .tooManyRequests)
        }
    }

    @Test func spoofedEntriesLeftOfTheProxyCannotResetTheLimit() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test({ Self.behindProxy(&$0); $0.abuse.addressLimit = 3 }, mode: .live) { client in
            // The proxy appends the real client; whatever the client wrote before it is not believed.
            for index in 1...3 {
                let response = try await client.login(Fixture.email, Fixture.password, from: "10.9.9.\(index), 198.51.100.20")
                #expect(response.status == .ok)
            }
            let limited = try await client.login(Fixture.email, Fixture.password, from: "10.9.9.4, 198.51.100.20")
            #expect(limited.status == .tooManyRequests)
            let status14 = try await client.login(Fixture.email, Fixture.password, from: "198.51.100.21").status
            #expect(status14 == .ok)
        }
    }

    @Test func refusalsAreLoggedWithReasonAndAccountReferenceButNoSecret() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        let sink = LogSink()
        var logger = Logger(label: "capture") { _ in sink }
        logger.logLevel = .info
        try await fixture.test({ $0.abuse.backoffThreshold = 2 }, logger: logger) { client in
            _ = try await client.login(Fixture.email, "first-wrong-password")
            _ = try await client.login(Fixture.email, "second-wrong-password")
            _ = try await client.login(Fixture.email, Fixture.password)
        }
        // What an operator sees at the default level (debug lines carry SQL and are off by default).
        let text = sink.operatorText
        #expect(text.contains("Sign-in refused") && text.contains("invalid_credentials"))
        #expect(text.contains("Sign-in back-off started"))
        #expect(text.contains("Sign-in throttled") && text.contains("backoff"))
        #expect(text.contains("account.ref"))
        for secret in [Fixture.email, Fixture.password, "first-wrong-password", "second-wrong-password"] {
            #expect(!text.contains(secret))
        }
    }
}
