import Testing
@testable import LoginCore

/// Issue 36, point 1: a number typed one key at a time, country code first, is the number that
/// was typed; the field never reads a half-typed `+91` as the national digits.
@Suite struct PhoneTypingTests {
    static let india = TestCountries.india

    /// Types `keys` one at a time into an empty field, as a browser would, each edit seeing the
    /// text the previous one left; returns every step's text and the final edit.
    static func type(_ keys: String, country: PhoneCountry = india) -> (steps: [String], last: PhoneNumberInput.Edit) {
        var text = ""
        var last = PhoneNumberInput.edit("", country: country)
        var steps: [String] = []
        for key in keys {
            last = PhoneNumberInput.edit(text + String(key), country: country)
            text = last.text
            steps.append(text)
        }
        return (steps, last)
    }

    @Test(arguments: ["+919876543210", "+91 98765 43210", "+91-98765-43210", "00919876543210", "09876543210", "9876543210", "98765 43210"])
    func typedKeyByKeyInAnyOrderItIsTheNumberTyped(keys: String) {
        let (steps, last) = Self.type(keys)
        #expect(last.digits == "9876543210" && last.text == "98765 43210", "\(keys): \(steps)")
        #expect(PhoneNumberInput.isComplete(last.digits, country: Self.india))
        #expect(!steps.contains("91987 65432"), "the dial code was never read as national digits")
    }

    @Test func theCountryCodeStaysAsTypedUntilTheNationalDigitsStart() {
        let (steps, _) = Self.type("+919")
        #expect(steps == ["+", "+9", "+91", "9"])
        #expect(PhoneNumberInput.edit("+91", country: Self.india).digits.isEmpty)
    }

    @Test func anotherCountrysCodeIsNeverAWholeIndianNumber() {
        let (_, last) = Self.type("+14155550100")
        #expect(last.text == "+14155550100" && last.digits.isEmpty)
        #expect(!PhoneNumberInput.isComplete(last.digits, country: Self.india))
    }

    /// The machine, fed the same keystrokes, ends with the number typed and Send OTP enabled.
    @Test func theMachineTypedKeyByKeyEndsReadyToSendTheNumberTyped() throws {
        var probe = try Seed004PhoneFormTests.urbanNest()
        for key in "+919876543210" {
            let typed = probe.state.number + String(key)
            let edit = PhoneNumberInput.edit(typed, country: Self.india)
            let complete = PhoneNumberInput.isComplete(edit.digits, country: Self.india)
            probe.send(.numberChanged(typed, caret: nil), effects: complete ? [.announce("Valid phone number")] : []) {
                $0.number = edit.text
                $0.digits = edit.digits
                $0.caret = edit.caret
                $0.isNumberComplete = complete
                $0.isSendEnabled = complete
            }
        }
        #expect(probe.state.digits == "9876543210" && probe.state.number == "98765 43210")
        #expect(probe.state.isNumberComplete && probe.state.isSendEnabled)
    }
}
