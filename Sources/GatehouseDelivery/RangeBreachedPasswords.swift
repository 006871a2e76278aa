import AsyncHTTPClient
import Foundation
import GatehouseCore
import NIOCore
import Synchronization

/// Have I Been Pwned's k-anonymity range API (`GET {url}{first 5 hex of SHA-1}`), or any server
/// that answers the same way: one `SUFFIX:COUNT` line per known hash.
///
/// Only the 5-digit prefix leaves the server. `Add-Padding` asks for decoy lines, so the size of
/// the answer says nothing either. A slow or failing API throws, and the policy lets the password through.
/// Answers are kept for an hour per prefix (at most 10,000 prefixes), so a burst of sign-ups
/// asks the API once per prefix.
public struct RangeBreachedPasswords: BreachedPasswords {
    package let url: String
    package var timeout: TimeAmount = .seconds(3)
    /// What the API answered, by prefix, with when.
    private let cache = RangeCache()

    /// - Parameter url: the range endpoint up to the prefix, such as `https://api.pwnedpasswords.com/range/`.
    public init(url: String) throws {
        guard let parsed = URL(string: url), parsed.scheme == "https" || parsed.scheme == "http", parsed.host != nil else {
            throw DeliveryError("--breached-password-check must be an http(s) URL such as https://api.pwnedpasswords.com/range/")
        }
        self.url = url.hasSuffix("/") ? url : url + "/"
    }

    public func suffixes(prefix: String) async throws -> Set<String> {
        if let kept = cache.suffixes(prefix: prefix, now: Date()) { return kept }
        let found = try await fetch(prefix: prefix)
        cache.keep(found, prefix: prefix, now: Date())
        return found
    }

    private func fetch(prefix: String) async throws -> Set<String> {
        var request = HTTPClientRequest(url: url + prefix)
        request.headers.add(name: "Add-Padding", value: "true")
        request.headers.add(name: "User-Agent", value: "Gatehouse")
        let response = try await HTTPClient.outgoing.execute(request, timeout: timeout)
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

/// The range answers of the last hour, bounded; the oldest go first when it is full.
final class RangeCache: Sendable {
    static let lifetime: TimeInterval = 3600
    static let capacity = 10_000
    private let entries = Mutex<[String: (at: Date, suffixes: Set<String>)]>([:])

    func suffixes(prefix: String, now: Date) -> Set<String>? {
        entries.withLock { entries in
            guard let entry = entries[prefix] else { return nil }
            guard now.timeIntervalSince(entry.at) < Self.lifetime else {
                entries[prefix] = nil
                return nil
            }
            return entry.suffixes
        }
    }

    func keep(_ suffixes: Set<String>, prefix: String, now: Date) {
        entries.withLock { entries in
            if entries.count >= Self.capacity {
                let expired = entries.filter { now.timeIntervalSince($0.value.at) >= Self.lifetime }.map(\.key)
                for key in expired { entries[key] = nil }
                if entries.count >= Self.capacity, let oldest = entries.min(by: { $0.value.at < $1.value.at })?.key { entries[oldest] = nil }
            }
            entries[prefix] = (now, suffixes)
        }
    }
}
