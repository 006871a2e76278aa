import Foundation

/// The app's mark on every screen (`login.logo` in an app file): an SVG or PNG file and the
/// label a screen reader says for it (seed 002: "Peated logo").
public struct LoginLogo: Equatable, Sendable, Codable {
    /// The image file; a relative path is read from the app file's folder.
    public var path: String
    /// What assistive technology announces; never empty.
    public var label: String

    public init(path: String, label: String) {
        self.path = path
        self.label = label
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case path, label }

    public init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode(String.self, forKey: .path)
        label = try container.decode(String.self, forKey: .label)
        guard path.hasSuffix(".svg") || path.hasSuffix(".png") else {
            throw DecodingError.dataCorruptedError(forKey: .path, in: container, debugDescription: "the logo must be an .svg or .png file")
        }
        guard !label.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .label, in: container, debugDescription: "the logo needs a label for screen readers")
        }
    }

    /// The image's media type.
    public var mediaType: String { path.hasSuffix(".svg") ? "image/svg+xml" : "image/png" }
}
