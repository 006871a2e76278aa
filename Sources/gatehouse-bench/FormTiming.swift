import Foundation
import LoginCore

/// Times LoginCore's validation against seed 000 C5's 16 ms budget.
enum FormTiming {
    /// Median time of one typing-plus-blur event pair, over `samples` rounds of 1 000 pairs.
    static func medianEventTime(samples: Int = 9) -> Double {
        let form = LoginForm()
        var times: [Double] = []
        for _ in 0..<samples {
            var state = form.initialState()
            let start = ContinuousClock.now
            for index in 0..<1_000 {
                _ = form.send(.emailChanged("user\(index)@example.com"), to: &state)
                _ = form.send(.emailBlurred, to: &state)
            }
            times.append((ContinuousClock.now - start).seconds / 2_000)
        }
        return times.sorted()[samples / 2]
    }

    /// Median time of one keystroke in the phone field (seed 004: validation < 100 ms): ten
    /// digits typed one by one, formatted and checked, over `samples` rounds of 100 numbers.
    static func medianPhoneKeystroke(samples: Int = 9) -> Double {
        let form = PhoneSignInForm()
        let india = PhoneCountry(code: "IN", dialCode: "+91", name: "India", flag: "🇮🇳", example: "81234 56789", digits: 10, grouping: [5, 5])
        var times: [Double] = []
        for _ in 0..<samples {
            let start = ContinuousClock.now
            for round in 0..<100 {
                var state = form.initialState()
                _ = form.send(.countriesLoaded([india], preferred: nil), to: &state)
                var typed = ""
                for digit in String(9_876_500_000 + round) {
                    typed = state.number + String(digit)
                    _ = form.send(.numberChanged(typed, caret: nil), to: &state)
                }
            }
            times.append((ContinuousClock.now - start).seconds / 1_000)
        }
        return times.sorted()[samples / 2]
    }
}
