import Foundation
import LoginCore
import Testing

/// Seed 001's firstName/lastName kept consistent with seed 000's one-line name.
@Suite struct PersonNameTests {
    @Test(arguments: [
        ("Ada Lovelace", "Ada", "Lovelace"), ("  Ada   King Lovelace ", "Ada", "King Lovelace"),
        ("Cher", "Cher", ""), ("", "", ""), ("Zoë\tÅberg", "Zoë", "Åberg"),
    ])
    func splitsAtTheFirstSpaceAndJoinsBack(full: String, first: String, last: String) {
        let name = PersonName(full: full)
        #expect(name == PersonName(first: first, last: last))
        #expect(PersonName(full: name.full) == name, "splitting the joined form gives the same parts")
    }

    @Test(arguments: [
        (" Ada", "Ada"), ("Ada ", "Ada"), ("\tAda\n", "Ada"), ("Ada", "Ada"), ("   ", ""), ("", ""),
        ("Ada  King", "Ada  King"), ("\u{2003}Zoë\u{00A0}", "Zoë"),
    ])
    func eachPartLosesOnlyItsOuterWhitespace(part: String, kept: String) {
        #expect(PersonName(first: part, last: part) == PersonName(first: kept, last: kept))
        #expect(PersonName(first: part, last: "").first == kept)
    }

    @Test func FR006_signedInUserEncodesBothFormsAndDecodesEither() throws {
        let user = SignedInUser(id: "u1", email: "ada@example.com", firstName: "Ada", lastName: "King Lovelace")
        let encoded = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(user)) as? [String: String]
        #expect(encoded == ["id": "u1", "email": "ada@example.com", "name": "Ada King Lovelace", "firstName": "Ada", "lastName": "King Lovelace"])
        let seed000Body = Data(#"{"id":"u1","email":"ada@example.com","name":"Ada King Lovelace"}"#.utf8)
        #expect(try JSONDecoder().decode(SignedInUser.self, from: seed000Body) == user)
        let seed001Body = Data(#"{"id":"u1","email":"ada@example.com","firstName":"Ada","lastName":"King Lovelace"}"#.utf8)
        #expect(try JSONDecoder().decode(SignedInUser.self, from: seed001Body) == user)
    }

    @Test func appFilesRejectUnknownKeysAndSupabaseNeedsAnAnonKey() throws {
        let decode = { (json: String) in try JSONDecoder().decode(AppConfiguration.self, from: Data(json.utf8)) }
        #expect(throws: (any Error).self) { try decode(#"{"login":{},"backnd":{}}"#) }
        #expect(throws: (any Error).self) { try decode(#"{"backend":{"api":"supabase"}}"#) }
        #expect(throws: (any Error).self) { try decode(#"{"backend":{"api":"soap"}}"#) }
        #expect(try decode(#"{"backend":{"api":"graphql"}}"#).backend == BackendConfiguration(api: .graphql, path: "graphql"))
        #expect(try decode("{}") == AppConfiguration())
    }
}
