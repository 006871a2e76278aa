import AsyncHTTPClient
import Foundation
import GatehouseCore
import NIOCore

/// Have I Been Pwned's k-anonymity range API (`GET {url}{first 5 hex of SHA-1}`), or any server
/// that answers the same way: one `SUFFIX:COUNT` line per known hash.
///
/// Only the 5-digit prefix leaves the server. `Add-Padding` asks for decoy lines, so the size of
/// the answer says nothing either. A slow or failing API throws, and the policy lets the password through.
public struct RangeBreachedPasswords: BreachedPasswords {
    package let url: String
    package var timeout: TimeAmount = .seconds(3)

    /// - Parameter url: the range endpoint up to the prefix, such as `https://api.pwnedpasswords.com/range/`.
    public init(url: String) throws {
        guard let parsed = URL(string: url), parsed.scheme == "https" || parsed.scheme == "http", parsed.host != nil else {
            throw DeliveryError("--breached-password-check must be an http(s) URL such as https://api.pwnedpasswords.com/range/")
        }
        self.url = url.hasSuffix("/") ? url : url + "/"
    }

    public func suffixes(prefix: String) async throws -> Set<String> {
        var request = HTTPClientRequest(url: url + prefix)
        request.headers.add(name: "Add-Padding", value: "true")
        request.headers.add(name: "User-Agent", value: "Gatehouse")
        let response = try await HTTPClient.shared.execute(request, timeout: timeout)
        guard response.status.code == 200 else { throw DeliveryError("range API: HTTP \(response.status.code)") }
        let body = try await response.body.collect(upTo: 4 * 1024 * 1024)
        var found = Set<String>()
        for line in String(buffer: body).split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: ":")
            // Padding lines have a count of 0.
            guard parts.count == 2, parts[1].trimmingCharacters(in: .whitespaces) != "0" else { continue }
            found.insert(parts[0].uppercased())
        }
        return found
    }
}
