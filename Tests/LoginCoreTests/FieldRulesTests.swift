import Testing
@testable import LoginCore

/// Seed 000 C3 and R5: the email pattern and password length rules.
@Suite struct FieldRulesTests {
    let rules = FieldRules()

    @Test(arguments: [
        "user@example.com", "first.last+tag@sub.example.co.uk", "a_b%c-d@x-y.io", "  user@example.com\n",
        "USER@EXAMPLE.COM",
    ])
    func C3_acceptsValidEmails(email: String) {
        #expect(rules.validateEmail(email) == nil)
    }

    @Test(arguments: [
        "notanemail", "user@", "@example.com", "user@example", "user@example.c", "user@@example.com",
        "us er@example.com", "user@exa mple.com", "üser@example.com", "user@example.com\u{0}", "user@example.123",
    ])
    func C3_rejectsInvalidEmails(email: String) {
        #expect(rules.validateEmail(email) == .invalidFormat)
    }

    @Test(arguments: ["", "   ", "\n\t"])
    func A3_blankEmailIsRequired(email: String) {
        #expect(rules.validateEmail(email) == .required)
    }

    @Test func R5_passwordLengthsCountCodePoints() {
        #expect(rules.validatePassword("") == .required)
        #expect(rules.validatePassword("1234567") == .tooShort(minimum: 8))
        #expect(rules.validatePassword("12345678") == nil)
        #expect(rules.validatePassword("🔑🔑🔑🔑🔑🔑🔑🔑") == nil)
        #expect(rules.validatePassword(String(repeating: "x", count: 128)) == nil)
        #expect(rules.validatePassword(String(repeating: "x", count: 129)) == .tooLong(maximum: 128))
    }

    @Test func passwordsAreNeverTrimmed() {
        #expect(rules.validatePassword("        ") == nil)
    }

    @Test func FR011_normalizedEmailIsTrimmedAndLowercased() {
        #expect(rules.normalizedEmail("  Mixed.Case@Example.COM \n") == "mixed.case@example.com")
    }
}
