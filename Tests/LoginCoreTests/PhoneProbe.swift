import Foundation
import Testing
@testable import LoginCore

/// Drives a ``PhoneSignInForm`` step by step, comparing the whole state and the exact effects
/// after every event, as ``FormProbe`` does for the email form.
struct PhoneProbe {
    let form: PhoneSignInForm
    private(set) var state: PhoneSignInState

    init(_ configuration: LoginConfiguration, mode: PhoneSignInState.Mode = .signIn) {
        form = PhoneSignInForm(configuration: configuration)
        state = form.initialState(mode: mode)
    }

    mutating func send(
        _ event: PhoneSignInEvent, effects: [PhoneSignInEffect] = [],
        sourceLocation: SourceLocation = #_sourceLocation, _ update: (inout PhoneSignInState) -> Void = { _ in }
    ) {
        var expected = state
        update(&expected)
        let actual = form.send(event, to: &state)
        #expect(state == expected, "state after \(event)", sourceLocation: sourceLocation)
        #expect(actual.untracked == effects, "effects of \(event)", sourceLocation: sourceLocation)
    }
}

/// What `GET /api/auth/phone/countries` answers for India and the UK (libphonenumber's data).
enum TestCountries {
    static let india = PhoneCountry(code: "IN", dialCode: "+91", name: "India", flag: "🇮🇳", example: "81234 56789", digits: 10, grouping: [5, 5])
    static let uk = PhoneCountry(code: "GB", dialCode: "+44", name: "United Kingdom", flag: "🇬🇧", example: "7400 123456", digits: 10, grouping: [4, 6])
    static let sent = PhoneCodeSent(verificationID: "v1", phoneMasked: "+91 ••••• •3210", expiresIn: 300, resendAfter: 60, codeLength: 6)
}
