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
}
