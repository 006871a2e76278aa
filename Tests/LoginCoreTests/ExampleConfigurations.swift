import Foundation
import LoginCore

/// Loads the example configurations in `examples/`, one per seed app.
enum ExampleConfigurations {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("examples")

    /// Every example app's folder name (`000-generic` …).
    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).filter { $0.first?.isNumber == true }.sorted()
    }

    static func load(_ name: String) throws -> LoginConfiguration {
        try LoginConfiguration.load(from: root.appendingPathComponent(name).appendingPathComponent("gatehouse.json"))
    }
}
