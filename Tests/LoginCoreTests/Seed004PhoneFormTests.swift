import Foundation
import Testing
@testable import LoginCore

/// Seed 004's phone screen in LoginCore: formatting as you type, the send button's states,
/// every error state and announcement, with UrbanNest's exact copy. Whole state after every event.
@Suite struct Seed004PhoneFormTests {
    static let india = TestCountries.india
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func urbanNest(mode: PhoneSignInState.Mode = .signIn) throws -> PhoneProbe {
        var probe = PhoneProbe(try ExampleConfigurations.load("004-urbannest"), mode: mode)
        probe.send(.countriesLoaded([india, TestCountries.uk], preferred: nil)) {
            $0.countries = [india, TestCountries.uk]
            $0.country = india
        }
        return probe
    }

    /// A probe with a whole number typed: checkmark, "Valid phone number", Send OTP enabled.
    static func ready(_ digits: String = "9876543210") throws -> PhoneProbe {
        var probe = try Self.urbanNest()
        probe.send(.numberChanged(digits, caret: nil), effects: [.announce("Valid phone number")]) {
            $0.number = PhoneNumberInput.format(digits, country: india)
            $0.digits = digits
            $0.caret = 11
            $0.isNumberComplete = true
            $0.isSendEnabled = true
        }
        return probe
    }

    /// A probe whose "Send OTP" was pressed with 98765 43210.
    static func sending() throws -> PhoneProbe {
        var probe = try Self.ready()
        let request = PhoneCodeRequest(phone: "+919876543210", country: "IN")
        probe.send(.submit, effects: [.announce("Sending verification code"), .sendCode(request)]) {
            $0.isSending = true
            $0.isSendEnabled = false
        }
        return probe
    }

    @Test func S004_phoneInputAcceptsTenDigitsAndFormatsAsYouType() throws {
        var probe = try Self.urbanNest()
        probe.send(.numberChanged("12345", caret: nil)) {
            $0.number = "12345"
            $0.digits = "12345"
            $0.caret = 5
        }
        probe.send(.numberChanged("123456", caret: nil)) {
            $0.number = "12345 6"
            $0.digits = "123456"
            $0.caret = 7
        }
        probe.send(.numberChanged("12345 678901", caret: nil), effects: [.announce("Valid phone number")]) {
            $0.number = "12345 67890"
            $0.digits = "1234567890"
            $0.caret = 11
            $0.isNumberComplete = true
            $0.isSendEnabled = true
        }
    }

    @Test func S004_editingInTheMiddleKeepsTheCaretAfterTheSameDigit() throws {
        var probe = try Self.ready()
        probe.send(.numberChanged("9876 43210", caret: 4)) {
            $0.number = "98764 3210"
            $0.digits = "987643210"
            $0.caret = 4
            $0.isNumberComplete = false
            $0.isSendEnabled = false
        }
        probe.send(.numberChanged("98765 43210", caret: 5), effects: [.announce("Valid phone number")]) {
            $0.number = "98765 43210"
            $0.digits = "9876543210"
            $0.caret = 5
            $0.isNumberComplete = true
            $0.isSendEnabled = true
        }
    }

    @Test func S004_pastedInternationalOrTrunkNumberKeepsTheNationalDigits() throws {
        for pasted in ["+91 98765 43210", "+919876543210", "0091 98765 43210", "098765 43210"] {
            var probe = try Self.urbanNest()
            probe.send(.numberChanged(pasted, caret: nil), effects: [.announce("Valid phone number")]) {
                $0.number = "98765 43210"
                $0.digits = "9876543210"
                $0.caret = 11
                $0.isNumberComplete = true
                $0.isSendEnabled = true
            }
        }
    }

    @Test func S004_countryPickerRegroupsTheNumber() throws {
        var probe = try Self.ready()
        probe.send(.countrySelected("GB")) {
            $0.country = TestCountries.uk
            $0.number = "9876 543210"
        }
        probe.send(.countrySelected("ZZ")) { _ in }
        let spoken = probe.form.messages.text(.countryCodeLabel, ["country": "India", "dialCode": "+91"])
        #expect(spoken == "Country code, India +91")
    }

    @Test func S004_sendIsDisabledUntilValidAndAnInvalidSubmitShakesAndAnnounces() throws {
        var probe = try Self.urbanNest()
        probe.send(.numberChanged("01234 56789", caret: nil)) {
            $0.number = "01234 56789"
            $0.digits = "0123456789"
            $0.caret = 11
        }
        probe.send(.submit, effects: [.announce("Error. Please enter a valid phone number"), .shake, .focus(.number)]) {
            $0.numberError = "Please enter a valid 10-digit mobile number"
        }
        probe.send(.numberChanged("91234 56789", caret: 1), effects: [.announce("Valid phone number")]) {
            $0.number = "91234 56789"
            $0.digits = "9123456789"
            $0.caret = 1
            $0.numberError = nil
            $0.isNumberComplete = true
            $0.isSendEnabled = true
        }
    }

    @Test func S004_sendingDisablesInputsThenShowsSentAndOpensCodeEntry() throws {
        var probe = try Self.sending()
        #expect(!probe.state.areInputsEnabled)
        probe.send(.numberChanged("1", caret: nil)) { _ in }
        probe.send(.switchMode) { _ in }
        probe.send(.sendResponse(.success(TestCountries.sent)), effects: [.announce("Code sent"), .showCodeEntry(TestCountries.sent)]) {
            $0.isSending = false
            $0.isSent = true
        }
        #expect(probe.form.messages.text(.codeSentButton) == "Sent ✓")
        probe.send(.editNumber, effects: [.focus(.number)]) {
            $0.isSent = false
            $0.isSendEnabled = true
        }
    }

    @Test func S004_accountNotFoundOffersRegistrationWithTheNumber() throws {
        var probe = try Self.sending()
        probe.send(.sendResponse(.failure(.accountNotFound)), effects: [.announce("No account found. Create one?")]) {
            $0.isSending = false
            $0.isSendEnabled = true
            $0.banner = "No account found. Create one?"
            $0.suggestsRegistration = true
        }
        probe.send(.switchMode, effects: [.openOtherMode(digits: "9876543210", country: "IN")]) { _ in }
    }

    @Test func S004_networkErrorKeepsTheNumberShakesAndAllowsRetry() throws {
        for failure in [AuthFailure.networkUnavailable, .timeout] {
            var probe = try Self.sending()
            let toast = "Unable to send OTP. Check your connection."
            probe.send(.sendResponse(.failure(failure)), effects: [.announce(toast), .shake]) {
                $0.isSending = false
                $0.isSendEnabled = true
                $0.banner = toast
            }
        }
    }

    @Test func S004_providerFailureIsNotBlamedOnTheConnection() throws {
        var probe = try Self.sending()
        let text = "We could not send a code just now. Please try again in a minute."
        probe.send(.sendResponse(.failure(.smsUnavailable(retryAfter: 30))), effects: [.announce(text)]) {
            $0.isSending = false
            $0.isSendEnabled = true
            $0.banner = text
        }
    }

    @Test func S004_rateLimitedDisablesSendWithACountdownUntilTheClockPasses() throws {
        var probe = try Self.sending()
        let banner = "Too many attempts. Try again in 15 minutes."
        probe.send(.sendResponse(.failure(.rateLimited(retryAfter: 900))), effects: [.announce(banner), .startClock]) {
            $0.isSending = false
            $0.banner = banner
            $0.cooldown = .starting(seconds: 900)
        }
        probe.send(.submit) { _ in }
        probe.send(.tick(Self.start)) {
            $0.cooldown = .until(Self.start.addingTimeInterval(900))
            $0.banner = "Too many attempts. Try again in 15:00."
        }
        probe.send(.tick(Self.start.addingTimeInterval(61))) { $0.banner = "Too many attempts. Try again in 13:59." }
        probe.send(.tick(Self.start.addingTimeInterval(900)), effects: [.stopClock, .announce("You can try again now. Send OTP is enabled again.")]) {
            $0.cooldown = nil
            $0.banner = nil
            $0.isSendEnabled = true
        }
    }

    @Test func S004_registrationAsksForAFullNameThenSendsItWithTheNumber() throws {
        var probe = try Self.urbanNest(mode: .register)
        probe.send(.numberChanged("9876543210", caret: nil), effects: [.announce("Valid phone number")]) {
            $0.number = "98765 43210"
            $0.digits = "9876543210"
            $0.caret = 11
            $0.isNumberComplete = true
        }
        probe.send(.submit, effects: [.announce("Please enter your name"), .focus(.name)]) {
            $0.nameError = "Please enter your name"
        }
        probe.send(.nameChanged(" Asha Rao ")) {
            $0.name = " Asha Rao "
            $0.nameError = nil
            $0.isSendEnabled = true
        }
        let request = PhoneCodeRequest(phone: "+919876543210", country: "IN", name: "Asha Rao")
        probe.send(.submit, effects: [.announce("Sending verification code"), .sendCode(request)]) {
            $0.isSending = true
            $0.isSendEnabled = false
        }
        probe.send(.sendResponse(.failure(.phoneTaken)), effects: [.announce("This number already has an account. Sign in instead.")]) {
            $0.isSending = false
            $0.isSendEnabled = true
            $0.banner = "This number already has an account. Sign in instead."
        }
    }
}
