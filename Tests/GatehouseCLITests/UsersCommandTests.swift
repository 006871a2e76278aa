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
        #expect(try await run(["list"]).stdout.contains("jane@example.com\tJane Doe\tlocked\t"))
        #expect(try await run(["unlock", "--email", "JANE@example.com"]).status == 0)
        #expect(try await run(["list"]).stdout.contains("jane@example.com\tJane Doe\tactive\t"))
        #expect(try await run(["set-password", "--email", "jane@example.com", "--password-stdin"], input: "battery staple").status == 0)
        #expect(try await run(["delete", "--email", "jane@example.com"]).status == 0)
        #expect(try await run(["list"]).stdout == "EMAIL\tNAME\tSTATUS\tCREATED\n")

        let missing = try await run(["delete", "--email", "jane@example.com"])
        #expect(missing.status != 0)
        #expect(missing.stderr == "gatehouse: No account has the email jane@example.com\n")
    }

    @Test func databaseFileIsOwnerOnly() async throws {
        let directory = try CLIProcess.temporaryDirectory()
        _ = try await CLIProcess.run(["users", "list", "--database", "x.sqlite"], in: directory)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("x.sqlite").path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }
}
