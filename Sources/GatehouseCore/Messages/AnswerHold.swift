import NIOConcurrencyHelpers

/// The work a request starts for after its answer (its mail, its notices), held until the
/// answer has been written.
///
/// The HTTP foundation's `AnswerHoldMiddleware` sets ``current`` for each request and calls
/// ``release()`` once the response's body is written; ``afterAnswer(_:)`` hands a job to the
/// request's hold, or starts it at once outside a request (the CLI, the outbox's worker). So a
/// request that mails someone answers before its mail competes for the machine: an address with
/// an account answers in the time of one without, where the mail's first try, started while the
/// answer was still being written, made it measurably slower on two busy cores.
///
/// A hold whose answer is never written (the client went away) starts its work when it is
/// released from memory; a job held after the release starts at once.
public final class AnswerHold: Sendable {
    /// The hold of the request this task serves, if any.
    @TaskLocal public static var current: AnswerHold?

    /// The held starts; `nil` once released.
    private let held = NIOLockedValueBox<[@Sendable () -> Void]?>([])

    public init() {}

    deinit { release() }

    /// Starts `start` once the current request's answer is written, or now outside a request.
    public static func afterAnswer(_ start: @escaping @Sendable () -> Void) {
        if let hold = current { hold.hold(start) } else { start() }
    }

    /// Whether any work waits for this answer.
    public var isHolding: Bool { held.withLockedValue { $0?.isEmpty == false } }

    /// Starts the held work, in the order it was held; anything held later starts at once.
    public func release() {
        let starts = held.withLockedValue { held in
            defer { held = nil }
            return held ?? []
        }
        for start in starts { start() }
    }

    private func hold(_ start: @escaping @Sendable () -> Void) {
        let isHeld = held.withLockedValue { held in
            guard held != nil else { return false }
            held?.append(start)
            return true
        }
        if !isHeld { start() }
    }
}
