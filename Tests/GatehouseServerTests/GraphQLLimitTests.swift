import Foundation
import GraphQLSurface
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 10, finding 1: no GraphQL document can pin the CPU. Each payload is the attacker's.
@Suite struct GraphQLLimitTests {
    /// `mutation{logout(scope:{a:{a:…1…}})}` with `depth` nested objects.
    static func nestedScope(depth: Int) -> String {
        "mutation{logout(scope:" + String(repeating: "{a:", count: depth) + "1" + String(repeating: "}", count: depth) + ")}"
    }

    static func error(_ client: some TestClientProtocol, _ query: String) async throws -> (message: String, code: String?) {
        let response = try await client.postJSON("/graphql", try GraphQLRouteTests.body(query))
        #expect(response.status == .ok)
        return try GraphQLRouteTests.firstError(response)
    }

    @Test func F1_nestedLiteralsUpToDepth1000AreRefusedBeforeParsing() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            for depth in [20, 24, 28, 30, 1000] {
                let error = try await Self.error(client, Self.nestedScope(depth: depth))
                #expect(error.code == "GRAPHQL_VALIDATION_FAILED", "depth \(depth)")
                #expect(error.message == "The document nests more than 32 levels deep" || depth < 32, "depth \(depth): \(error.message)")
            }
            let error = try await Self.error(client, Self.nestedScope(depth: 5))
            #expect(error.message == "Argument values may nest lists and objects at most 4 levels deep")
        }
    }

    /// With every size limit lifted, the literal still never reaches the library's printer,
    /// which would take minutes at this depth. The timeout only turns a hang into a failure.
    @Test func F1_aWrongLiteralIsReportedWithoutPrintingIt() async throws {
        let fixture = try await Fixture()
        var unlimited = GraphQLLimits()
        unlimited.maxNesting = 10_000
        unlimited.maxLiteralDepth = 10_000
        try await fixture.test({ $0.graphQL = unlimited }) { client in
            let error = try await withThrowingTaskGroup(of: (message: String, code: String?)?.self) { group in
                group.addTask { try await Self.error(client, Self.nestedScope(depth: 36)) }
                group.addTask { try await Task.sleep(for: .seconds(30)); return nil }
                let first = try await group.next() ?? nil
                group.cancelAll()
                return first
            }
            let answered = try #require(error, "the request did not finish within 30 s")
            #expect(answered.code == "GRAPHQL_VALIDATION_FAILED")
            #expect(answered.message == #"Expected value of type "String", found an object."#)
            let list = try await Self.error(client, "mutation{logout(scope:[[[1]]])}")
            #expect(list.message == #"Expected value of type "String", found a list."#)
        }
    }

    @Test func F1_aThousandAliasesAreRefusedAndTenAreServed() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let thousand = "{" + (0..<1000).map { "a\($0):me{id}" }.joined(separator: " ") + "}"
            let refused = try await Self.error(client, thousand)
            #expect(refused == ("The document may use at most 10 aliases", "GRAPHQL_VALIDATION_FAILED"))
            let token = try await client.grant().accessToken
            let ten = "{" + (0..<10).map { "a\($0):me{id}" }.joined(separator: " ") + "}"
            let response = try await client.postJSON("/graphql", try GraphQLRouteTests.body(ten), headers: [.authorization: "Bearer \(token)"])
            let data = try #require(try GraphQLRouteTests.json(response)["data"] as? [String: Any])
            #expect(data.count == 10)
        }
    }

    @Test func F1_deepSelectionsAndFragmentBombsAreRefused() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            // Ten fragments, each spreading the next twice: 2^10 copies of `me` once expanded.
            var bomb = "{...F0} "
            for level in 0..<10 { bomb += "fragment F\(level) on Query { ...F\(level + 1) ...F\(level + 1) } " }
            bomb += "fragment F10 on Query { me { id } }"
            let cost = try await Self.error(client, bomb)
            #expect(cost == ("The document is too costly: at most 500 fields, fragments expanded", "GRAPHQL_VALIDATION_FAILED"))
            let deep = "{" + String(repeating: "__schema{types{fields{type{", count: 4) + "name" + String(repeating: "}", count: 16) + "}"
            let depth = try await Self.error(client, deep)
            #expect(depth == ("The document nests fields more than 15 levels deep", "GRAPHQL_VALIDATION_FAILED"))
            let cycle = try await Self.error(client, "{...A} fragment A on Query { ...B } fragment B on Query { ...A }")
            #expect(cycle.code == "GRAPHQL_VALIDATION_FAILED" && cycle.message.contains("Cannot spread fragment"))
        }
    }

    @Test func F1_bracketsInsideStringsAndCommentsDoNotCount() throws {
        let limits = GraphQLLimits()
        let text = "{ me # " + String(repeating: "{", count: 100) + "\n }" + #" "# + "\"" + String(repeating: "[", count: 100) + "\\\"\""
        #expect(throws: Never.self) { try limits.checkText(text) }
        let block = "\"\"\"" + String(repeating: "(", count: 100) + "\\\"\"\" still inside \"\"\""
        #expect(throws: Never.self) { try limits.checkText(block) }
        #expect(throws: GraphQLLimits.Exceeded.self) { try limits.checkText(String(repeating: "{", count: 33)) }
    }
}
