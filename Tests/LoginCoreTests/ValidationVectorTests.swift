import Foundation
import Testing
@testable import LoginCore

/// The shared validation vectors (testdata/validation-vectors.json) against the Swift rules;
/// the browser suite checks the same file against the web page.
@Suite struct ValidationVectorTests {
    struct Vector: Decodable, CustomTestStringConvertible, Sendable {
        let config: String
        let field: LoginField
        let value: String
        let message: String?
        var testDescription: String { "\(config) \(field) \(value.prefix(16).debugDescription)" }
    }

    static let vectors: [Vector] = {
        let url = ExampleConfigurations.root.deletingLastPathComponent().appendingPathComponent("testdata/validation-vectors.json")
        return (try? JSONDecoder().decode([Vector].self, from: Data(contentsOf: url))) ?? []
    }()

    @Test func vectorsAreThere() {
        #expect(Self.vectors.count >= 15)
    }

    @Test(arguments: vectors)
    func swiftRulesAgreeWithTheSharedVectors(_ vector: Vector) throws {
        let configuration = try ExampleConfigurations.load(vector.config)
        let issue = configuration.rules.validate(vector.field, vector.value)
        #expect(issue?.message(for: vector.field, in: configuration.messages) == vector.message)
    }
}
