import Foundation
import Testing

/// `gatehouse users …` against a real SQLite file.
@Suite struct UsersCommandTests {
    @Test func accountLifecycle() async throws {
        let directory = try CLIProcess.temporaryDirectory()
        func run(_ arguments: [String], input: String = "") async throws -> CLIProcess.Result {
            try await CLIProcess.run(["users"] + arguments + ["--database", "accounts.sqlite"], input: input, in: directory)
        }
        let created = try await run(["create", "--email", "Jane@Example.com", "--name", "Jane Doe", "--password-stdin"], input: "correct horse\n")
        #expect(created.status == 0)
        #expect(created.stdout.hasPrefix("Created jane@example.com ("))

        let duplicate = try await run(["create", "--email", "jane@example.COM", "--name", "J", "--password-stdin"], input: "correct horse")
        #expect(duplicate.status != 0)
        #expect(duplicate.stderr == "gatehouse: An account with the email jane@example.com already exists\n")

        let weak = try await run(["create", "--email", "kim@example.com", "--name", "Kim", "--password-stdin"], input: "short")
        #expect(weak.stderr == "gatehouse: Password must be at least 8 characters\n")

        let badEmail = try await run(["create", "--email", "notanemail", "--name", "X", "--password-stdin"], input: "long enough")
        #expect(badEmail.stderr == "gatehouse: Please enter a valid email\n")

        #expect(try await run(["lock", "--email", "jane@example.com"]).stdout == "Locked jane@example.com\n")
        #expect(try await run(["list"]).stdout.contains("jane@example.com\t-\tJane Doe\tlocked\t"))
        #expect(try await run(["unlock", "--email", "JANE@example.com"]).status == 0)
        #expect(try await run(["list"]).stdout.contains("jane@example.com\t-\tJane Doe\tactive\t"))
        #expect(try await run(["set-password", "--email", "jane@example.com", "--password-stdin"], input: "battery staple").status == 0)
        #expect(try await run(["delete", "--email", "jane@example.com"]).status == 0)
        #expect(try await run(["list"]).stdout == "EMAIL\tPHONE\tNAME\tSTATUS\tCREATED\n")

        let missing = try await run(["delete", "--email", "jane@example.com"])
        #expect(missing.status != 0)
        #expect(missing.stderr == "gatehouse: No account has the email jane@example.com\n")
    }

    /// Issue 35, point 10: the CLI's passwords pass the sign-up policy (the common list too),
    /// unless the operator says `--allow-weak-password` (demo and test data).
    @Test func S10_theCLIRefusesACommonPasswordUnlessAskedToAllowIt() async throws {
        let directory = try CLIProcess.temporaryDirectory()
        func run(_ arguments: [String], input: String = "") async throws -> CLIProcess.Result {
            try await CLIProcess.run(["users"] + arguments + ["--database", "accounts.sqlite"], input: input, in: directory)
        }
        let common = try await run(["create", "--email", "lee@example.com", "--name", "Lee", "--password-stdin"], input: "password")
        #expect(common.status == 1 && common.stderr == "gatehouse: This password is too common. Please choose another.\n")
        #expect(try await run(["create", "--email", "lee@example.com", "--name", "Lee", "--password-stdin"], input: "a fine long passphrase").status == 0)
        let reset = try await run(["set-password", "--email", "lee@example.com", "--password-stdin"], input: "password")
        #expect(reset.status == 1 && reset.stderr == "gatehouse: This password is too common. Please choose another.\n")
        let update = try await run(["update", "--email", "lee@example.com", "--password-stdin"], input: "password123")
        #expect(update.status == 1)
        let allowed = try await run(["set-password", "--email", "lee@example.com", "--password-stdin", "--allow-weak-password"], input: "password")
        #expect(allowed.status == 0)
    }

    @Test func aPhoneAccountNeedsNoEmailOrPasswordAndIsListedWithItsNumber() async throws {
        let directory = try CLIProcess.temporaryDirectory()
        func run(_ arguments: [String]) async throws -> CLIProcess.Result {
            try await CLIProcess.run(["users"] + arguments + ["--database", "accounts.sqlite"], in: directory)
        }
        let created = try await run(["create", "--phone", "+919876543210", "--name", "Asha Rao"])
        #expect(created.status == 0 && created.stdout.hasPrefix("Created +919876543210 ("))
        let national = try await run(["create", "--phone", "91234 56789", "--country", "IN", "--name", "Ravi Kumar"])
        #expect(national.stdout.hasPrefix("Created +919123456789 ("))
        let list = try await run(["list"]).stdout
        #expect(list.contains("-\t+919876543210\tAsha Rao\tactive\t") && list.contains("-\t+919123456789\tRavi Kumar\tactive\t"))
        let taken = try await run(["create", "--phone", "+91 98765 43210", "--name", "Someone Else"])
        #expect(taken.status != 0 && taken.stderr == "gatehouse: An account with the phone +919876543210 already exists\n")
        let invalid = try await run(["create", "--phone", "12345", "--country", "IN", "--name", "X"])
        #expect(invalid.status != 0 && invalid.stderr == "gatehouse: 12345 is not a valid phone number\n")
        let both = try await run(["create", "--phone", "+919876543210", "--email", "a@example.com", "--name", "X"])
        #expect(both.status != 0 && both.stderr.contains("give exactly one of --email and --phone"))
    }

    @Test func databaseFileIsOwnerOnly() async throws {
        let directory = try CLIProcess.temporaryDirectory()
        _ = try await CLIProcess.run(["users", "list", "--database", "x.sqlite"], in: directory)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("x.sqlite").path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }
}

/// Issue 20: administration acts on an account by its id; the CLI names it by email, phone or id.
@Suite struct AccountSelectorCommandTests {
    @Test func I20_anAccountCanBeNamedByPhoneOrIdAndExactlyOneWay() async throws {
        let directory = try CLIProcess.temporaryDirectory()
        func run(_ arguments: [String]) async throws -> CLIProcess.Result {
            try await CLIProcess.run(["users"] + arguments + ["--database", "accounts.sqlite"], in: directory)
        }
        let created = try await run(["create", "--phone", "+919876543210", "--name", "Asha Rao"])
        let id = try #require(created.stdout.split(separator: "(").last?.split(separator: ")").first.map(String.init))
        #expect(try await run(["lock", "--phone", "98765 43210", "--country", "IN"]).stdout == "Locked 98765 43210\n")
        #expect(try await run(["list"]).stdout.contains("+919876543210\tAsha Rao\tlocked\t"))
        #expect(try await run(["unlock", "--id", id]).stdout == "Unlocked \(id)\n")
        #expect(try await run(["list"]).stdout.contains("+919876543210\tAsha Rao\tactive\t"))
        let unknownID = try await run(["delete", "--id", "no-such-id"])
        #expect(unknownID.status != 0 && unknownID.stderr == "gatehouse: No account has the id no-such-id\n")
        let unknownPhone = try await run(["lock", "--phone", "+919123456789"])
        #expect(unknownPhone.status != 0 && unknownPhone.stderr == "gatehouse: No account has the phone +919123456789\n")
        let both = try await run(["lock", "--phone", "+919876543210", "--id", id])
        #expect(both.status != 0 && both.stderr == "gatehouse: give exactly one of --email, --phone and --id\n")
        #expect(try await run(["delete", "--id", id]).stdout == "Deleted \(id)\n")
        #expect(try await run(["list"]).stdout == "EMAIL\tPHONE\tNAME\tSTATUS\tCREATED\n")
    }
}
