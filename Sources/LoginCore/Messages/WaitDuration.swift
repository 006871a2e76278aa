/// A wait as people say it: "45 seconds", "15 minutes", "1 hour 30 minutes".
///
/// The rate-limit copy names the real wait the server gave (`Retry-After`) through its
/// `{time}` placeholder, so "Try again in {time}." is true whichever limit was hit. Waits under
/// two minutes are said in seconds ("90 seconds", beside a 1:30 countdown); longer ones are
/// rounded up to whole minutes, so the sentence never promises less than the server's wait.
public enum WaitDuration {
    /// The wait in words; `nil` (the server did not say) is "a few seconds".
    public static func text(seconds: Int?) -> String {
        guard let seconds else { return "a few seconds" }
        let clamped = max(1, seconds)
        if clamped < 120 { return unit(clamped, "second") }
        let minutes = (clamped + 59) / 60
        if minutes < 60 { return unit(minutes, "minute") }
        let hours = unit(minutes / 60, "hour")
        return minutes % 60 == 0 ? hours : hours + " " + unit(minutes % 60, "minute")
    }

    private static func unit(_ count: Int, _ name: String) -> String {
        "\(count) \(name)" + (count == 1 ? "" : "s")
    }
}
