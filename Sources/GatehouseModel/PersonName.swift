/// A person's name as a first and a last part, kept consistent with the one-line form.
///
/// Seed 000 returns a user's `name`; seed 001 returns `firstName` and `lastName`. Gatehouse
/// stores the two parts and derives the one-line name from them, so the two forms can never
/// disagree. Splitting a one-line name puts everything before the first space in `first`.
public struct PersonName: Equatable, Hashable, Sendable {
    public var first: String
    public var last: String

    public init(first: String, last: String) {
        self.first = first.trimmingWhitespace
        self.last = last.trimmingWhitespace
    }

    /// Splits a one-line name at its first run of whitespace.
    /// - Parameter full: a name such as "Ada Lovelace" or "Ada King Lovelace".
    public init(full: String) {
        let trimmed = full.trimmingWhitespace
        guard let gap = trimmed.firstIndex(where: \.isWhitespace) else {
            self.init(first: trimmed, last: "")
            return
        }
        self.init(first: String(trimmed[..<gap]), last: String(trimmed[gap...]))
    }

    /// The one-line form: the non-empty parts joined by one space.
    public var full: String {
        [first, last].filter { !$0.isEmpty }.joined(separator: " ")
    }
}

extension String {
    /// The string without leading or trailing whitespace.
    ///
    /// Every user read from storage passes its two name parts through here, so a part with
    /// nothing to trim (nearly all of them) is returned as it is, after looking at its ends.
    var trimmingWhitespace: String {
        guard first?.isWhitespace == true || last?.isWhitespace == true else { return self }
        return String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
