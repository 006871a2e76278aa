import Foundation
import LoginCore

/// Loads the example configurations in `examples/`, one per seed app.
enum ExampleConfigurations {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("examples")

    static func load(_ name: String) throws -> LoginConfiguration {
        try LoginConfiguration.load(from: root.appendingPathComponent(name).appendingPathComponent("gatehouse.json"))
    }
}
