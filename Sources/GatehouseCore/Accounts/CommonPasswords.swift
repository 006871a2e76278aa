import Foundation

/// The list of common passwords a new password must not be on (NIST SP 800-63B 5.1.1.2).
///
/// The 20,000 entries Django ships (see `Resources/common-passwords.NOTICE` for the source and
/// licence), read once and kept as a set; a password is compared lowercased, as the list is.
package enum CommonPasswords {
    /// The list, loaded on first use.
    package static let all: Set<String> = {
        guard let folder = Bundle.module.url(forResource: "Resources", withExtension: nil),
              let text = try? String(contentsOf: folder.appendingPathComponent("common-passwords.txt"), encoding: .utf8)
        else { preconditionFailure("the common-password list is missing from GatehouseCore's resources") }
        return Set(text.split(whereSeparator: \.isNewline).map(String.init))
    }()

    /// Whether `password` is on the list, ignoring case.
    package static func contains(_ password: String) -> Bool {
        all.contains(password.lowercased())
    }
}
