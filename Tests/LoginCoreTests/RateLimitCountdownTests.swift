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
        probe.send(.tick(Self.start.addingTimeInterval(90)), effects: [.stopClock, .announce("You can try again now. Log In is enabled again.")]) {
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

    @Test(arguments: [
        (1, "1 second"), (45, "45 seconds"), (60, "60 seconds"), (90, "90 seconds"), (119, "119 seconds"), (120, "2 minutes"),
        (121, "3 minutes"), (899, "15 minutes"),
        (900, "15 minutes"), (3599, "1 hour"), (3600, "1 hour"), (5400, "1 hour 30 minutes"), (7200, "2 hours"),
        (86_399, "24 hours"),
    ])
    func I26_theWaitIsSaidInWordsRoundedUp(seconds: Int, words: String) {
        #expect(WaitDuration.text(seconds: seconds) == words)
        #expect(MessageCatalogue([.rateLimited: "Wait {time}."]).rateLimitedText(seconds: seconds) == "Wait \(words).")
    }

    @Test func I26_emailScreenNamesAShortWaitThenSaysTheButtonIsBack() {
        var probe = Self.throttled(retryAfter: 45)
        let banner = "Too many attempts. Please try again in 45 seconds."
        probe.send(.loginResponse(.failure(.rateLimited(retryAfter: 45))), effects: [.announce(banner), .startClock]) {
            $0.isSubmitting = false
            $0.banner = banner
            $0.cooldown = .starting(seconds: 45)
            $0.retryCountdown = "Try again in 0:45"
        }
        probe.send(.tick(Self.start)) { $0.cooldown = .until(Self.start.addingTimeInterval(45)) }
        probe.send(.tick(Self.start.addingTimeInterval(44.2))) { $0.retryCountdown = "Try again in 0:01" }
        probe.send(.tick(Self.start.addingTimeInterval(45)), effects: [.stopClock, .announce("You can try again now. Log In is enabled again.")]) {
            $0.cooldown = nil
            $0.retryCountdown = nil
            $0.isSubmitEnabled = true
        }
    }

    @Test func I26_urbanNestNamesEachLimitsRealWait() throws {
        let configuration = try ExampleConfigurations.load("004-urbannest")
        for (seconds, banner, countdown) in [
            (45, "Too many attempts. Try again in 45 seconds.", "Try again in 0:45"),
            (3600, "Too many attempts. Try again in 1 hour.", "Try again in 60:00"),
        ] {
            var probe = Self.throttled(configuration, retryAfter: seconds)
            probe.send(.loginResponse(.failure(.rateLimited(retryAfter: seconds))), effects: [.announce(banner), .startClock]) {
                $0.isSubmitting = false
                $0.banner = banner
                $0.cooldown = .starting(seconds: seconds)
                $0.retryCountdown = countdown
            }
        }
    }

    @Test(arguments: ["Too many attempts. Try again in 15 minutes.", "Wait {seconds} seconds.", "Too many attempts."])
    func I26_copyThatNamesAFixedTimeIsRefusedNamingThePlaceholder(copy: String) throws {
        let json = Data(#"{"messages": {"rateLimited": "\#(copy)"}}"#.utf8)
        let error = #expect(throws: (any Error).self) { try JSONDecoder().decode(LoginConfiguration.self, from: json) }
        let description = String(describing: error!)
        #expect(description.contains("{time}"), "the refusal names the placeholder: \(description)")
        #expect(description.contains("rateLimited"))
    }

    @Test func I26_everyExampleAppNamesTheWaitWithThePlaceholder() throws {
        #expect(ExampleConfigurations.names.count == 5)
        for name in ExampleConfigurations.names {
            let configuration = try ExampleConfigurations.load(name)
            #expect(configuration.messages[.rateLimited].contains("{time}"), "\(name)")
        }
    }
}
