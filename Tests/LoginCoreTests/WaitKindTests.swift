import Foundation
import Testing
@testable import LoginCore

/// Issue 26: a wait is shown as what it is. The resend window (a code went out moments ago) is
/// the resend countdown with no error; a real limit (per phone, per day, per address) is the
/// app's error naming the real wait, its countdown, and the button back at the end. Whole
/// state after every event, with UrbanNest's copy.
@Suite struct WaitKindTests {
    static let start = Seed004PhoneFormTests.start

    /// A code screen whose first 60 s wait has run out, with "Resend code" just pressed.
    static func resendPressed() -> Seed004CodeEntryTests.Probe {
        var probe = Seed004CodeEntryTests.Probe()
        probe.send(.tick(start)) {
            $0.resendCooldown = .until(start.addingTimeInterval(60))
            $0.expiry = .until(start.addingTimeInterval(300))
        }
        probe.send(.tick(start.addingTimeInterval(60))) {
            $0.resendCooldown = nil
            $0.resendCountdown = nil
        }
        probe.send(.resend, effects: [.announce("Sending verification code"), .resend(verificationID: "v1")]) { $0.isResending = true }
        return probe
    }

    @Test func I26_phoneScreenResendWindowShowsTheResendCountdownAndNoError() throws {
        var probe = try Seed004PhoneFormTests.sending()
        let announced = "A code was just sent. You can ask for a new one in 33 seconds."
        probe.send(.sendResponse(.failure(.resendTooSoon(retryAfter: 33))), effects: [.announce(announced), .startClock]) {
            $0.isSending = false
            $0.waitsForResend = true
            $0.cooldown = .starting(seconds: 33)
            $0.retryCountdown = "Resend code in 0:33"
        }
        #expect(probe.state.banner == nil && probe.state.numberError == nil, "no error, so no red border and no shake")
        probe.send(.submit) { _ in }
        probe.send(.tick(Self.start)) { $0.cooldown = .until(Self.start.addingTimeInterval(33)) }
        probe.send(.tick(Self.start.addingTimeInterval(1))) { $0.retryCountdown = "Resend code in 0:32" }
        probe.send(.tick(Self.start.addingTimeInterval(33)), effects: [.stopClock, .announce("You can try again now. Send OTP is enabled again.")]) {
            $0.cooldown = nil
            $0.retryCountdown = nil
            $0.waitsForResend = false
            $0.isSendEnabled = true
        }
    }

    /// Issue 36, point 9: the wait is shown once, in the seed's sentence (no second countdown
    /// beside it); the sentence then counts down in place, under an hour as m:ss.
    @Test(arguments: [
        (900, "Too many attempts. Try again in 15 minutes.", ["Too many attempts. Try again in 15:00.", "Too many attempts. Try again in 14:59."]),
        (86_000, "Too many attempts. Try again in 23 hours 54 minutes.", [
            "Too many attempts. Try again in 23 hours 54 minutes.", "Too many attempts. Try again in 23 hours 54 minutes.",
        ]),
        (45, "Too many attempts. Try again in 45 seconds.", ["Too many attempts. Try again in 0:45.", "Too many attempts. Try again in 0:44."]),
    ])
    func I26_phoneScreenRealLimitsShowTheSeedErrorWithTheRealWait(seconds: Int, banner: String, ticking: [String]) throws {
        var probe = try Seed004PhoneFormTests.sending()
        probe.send(.sendResponse(.failure(.rateLimited(retryAfter: seconds))), effects: [.announce(banner), .startClock]) {
            $0.isSending = false
            $0.banner = banner
            $0.cooldown = .starting(seconds: seconds)
        }
        probe.send(.tick(Self.start)) {
            $0.cooldown = .until(Self.start.addingTimeInterval(TimeInterval(seconds)))
            $0.banner = ticking[0]
        }
        probe.send(.tick(Self.start.addingTimeInterval(1))) { $0.banner = ticking[1] }
    }

    @Test func I26_aLimitAfterAResendWaitIsShownAsALimit() throws {
        var probe = try Seed004PhoneFormTests.sending()
        probe.send(.sendResponse(.failure(.resendTooSoon(retryAfter: 5))), effects: [
            .announce("A code was just sent. You can ask for a new one in 5 seconds."), .startClock,
        ]) {
            $0.isSending = false
            $0.waitsForResend = true
            $0.cooldown = .starting(seconds: 5)
            $0.retryCountdown = "Resend code in 0:05"
        }
        probe.send(.tick(Self.start)) { $0.cooldown = .until(Self.start.addingTimeInterval(5)) }
        probe.send(.tick(Self.start.addingTimeInterval(5)), effects: [.stopClock, .announce("You can try again now. Send OTP is enabled again.")]) {
            $0.cooldown = nil
            $0.retryCountdown = nil
            $0.waitsForResend = false
            $0.isSendEnabled = true
        }
        let request = PhoneCodeRequest(phone: "+919876543210", country: "IN")
        probe.send(.submit, effects: [.announce("Sending verification code"), .sendCode(request)]) {
            $0.isSending = true
            $0.isSendEnabled = false
        }
        let banner = "Too many attempts. Try again in 15 minutes."
        probe.send(.sendResponse(.failure(.rateLimited(retryAfter: 895))), effects: [.announce(banner), .startClock]) {
            $0.isSending = false
            $0.banner = banner
            $0.cooldown = .starting(seconds: 895)
        }
    }

    @Test func I26_codeScreenResendWindowIsItsCountdownWithoutAnError() {
        var probe = Self.resendPressed()
        // Another tab asked for a code a moment ago: the server's window restarts.
        probe.send(.resendResponse(.failure(.resendTooSoon(retryAfter: 33))), effects: [
            .announce("A code was just sent. You can ask for a new one in 33 seconds."), .startClock,
        ]) {
            $0.isResending = false
            $0.resendCooldown = .starting(seconds: 33)
            $0.resendCountdown = "Resend code in 0:33"
            $0.announcesResendReady = true
        }
        probe.send(.tick(Self.start.addingTimeInterval(61))) {
            $0.resendCooldown = .until(Self.start.addingTimeInterval(94))
        }
        probe.send(.tick(Self.start.addingTimeInterval(94)), effects: [.announce("You can try again now. Resend code is enabled again.")]) {
            $0.resendCooldown = nil
            $0.resendCountdown = nil
            $0.announcesResendReady = false
        }
        #expect(probe.state.isResendEnabled)
    }

    @Test func I26_codeScreenLimitClearsItsErrorWhenTheWaitEnds() {
        var probe = Self.resendPressed()
        let banner = "Too many attempts. Please try again in 2 minutes."
        probe.send(.resendResponse(.failure(.rateLimited(retryAfter: 120))), effects: [.announce(banner), .startClock]) {
            $0.isResending = false
            $0.banner = banner
            $0.resendCooldown = .starting(seconds: 120)
            $0.resendCountdown = "Resend code in 2:00"
            $0.announcesResendReady = true
        }
        probe.send(.tick(Self.start.addingTimeInterval(60))) { $0.resendCooldown = .until(Self.start.addingTimeInterval(180)) }
        probe.send(.tick(Self.start.addingTimeInterval(180)), effects: [.announce("You can try again now. Resend code is enabled again.")]) {
            $0.resendCooldown = nil
            $0.resendCountdown = nil
            $0.announcesResendReady = false
            $0.banner = nil
        }
    }
}
