/// When the sign-in button may be pressed.
public enum SubmitPolicy: String, Codable, Sendable {
    /// The button stays disabled until both fields pass validation (seed 000 A1, A10).
    case disabledUntilValid
    /// The button is always enabled; pressing it validates and shows inline errors (seed 003).
    case validateOnSubmit
}
