import Foundation
import Testing
@testable import LoginCore

/// Issue 9 and seed 004's 429: submit stays disabled until a time the host's clock passes in,
/// with a countdown, announced when it starts and when it ends, never on every tick.
@Suite struct RateLimitCountdownTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func throttled(_ configuration: LoginConfiguration = .standard, retryAfter: Int) -> FormProbe {
        var probe = FormProbe(configuration)
        probe.fillValid()
        probe.send(.submit, effects: [.announce("Signing in"), .authenticate(Credentials(email: "user@example.com", password: "password123"))]) {
            $0.touched = [.email, .password]
            $0.isSubmitting = true
            $0.isSubmitEnabled = false
        }
        return probe
    }

    @Test func S004_rateLimitedDisablesSubmitUntilTheClockPassesRetryAfter() {
        var probe = Self.throttled(retryAfter: 90)
        let banner = "Too many attempts. Please try again in 90 seconds."
        probe.send(.loginResponse(.failure(.rateLimited(retryAfter: 90))), effects: [.announce(banner), .startClock]) {
            $0.isSubmitting = false
            $0.banner = banner
            $0.cooldown = .starting(seconds: 90)
            $0.retryCountdown = "Try again in 1:30"
        }
        probe.send(.tick(Self.start)) {
            $0.cooldown = .until(Self.start.addingTimeInterval(90))
        }
        probe.send(.submit, effects: []) { _ in }
        probe.send(.tick(Self.start.addingTimeInterval(1))) { $0.retryCountdown = "Try again in 1:29" }
        probe.send(.tick(Self.start.addingTimeInterval(80.5))) { $0.retryCountdown = "Try again in 0:10" }
        probe.send(.passwordChanged("password1234")) {
            $0.password = "password1234"
            $0.banner = nil
        }
        probe.send(.tick(Self.start.addingTimeInterval(90)), effects: [.stopClock, .announce("You can try again now.")]) {
            $0.cooldown = nil
            $0.retryCountdown = nil
            $0.isSubmitEnabled = true
        }
        probe.send(.tick(Self.start.addingTimeInterval(91))) { _ in }
    }

    @Test func S004_urbanNestCopyIsFifteenMinutes() throws {
        let configuration = try ExampleConfigurations.load("004-urbannest")
        var probe = Self.throttled(configuration, retryAfter: 900)
        let banner = "Too many attempts. Try again in 15 minutes."
        probe.send(.loginResponse(.failure(.rateLimited(retryAfter: 900))), effects: [.announce(banner), .startClock]) {
            $0.isSubmitting = false
            $0.banner = banner
            $0.cooldown = .starting(seconds: 900)
            $0.retryCountdown = "Try again in 15:00"
        }
    }

    @Test func aWaitTheServerDidNotGiveStartsNoCountdown() {
        var probe = Self.throttled(retryAfter: 0)
        let banner = "Too many attempts. Please try again in a few seconds."
        probe.send(.loginResponse(.failure(.rateLimited(retryAfter: nil))), effects: [.announce(banner)]) {
            $0.isSubmitting = false
            $0.isSubmitEnabled = true
            $0.banner = banner
        }
    }

    @Test(arguments: [(0, "0:00"), (9, "0:09"), (60, "1:00"), (61, "1:01"), (900, "15:00")])
    func countdownIsMinutesAndSeconds(seconds: Int, shown: String) {
        #expect(MessageCatalogue().retryCountdownText(seconds: seconds) == "Try again in \(shown)")
    }

    @Test func minutesRoundUp() {
        let catalogue = MessageCatalogue([.rateLimited: "Wait {minutes} min ({seconds} s)."])
        #expect(catalogue.rateLimitedText(seconds: 61) == "Wait 2 min (61 s).")
        #expect(catalogue.rateLimitedText(seconds: 900) == "Wait 15 min (900 s).")
    }
}
