import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address as its bytes.
package struct IPAddress: Equatable, Sendable {
    package let bytes: [UInt8]

    package init?(_ text: String) {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            let raw = withUnsafeBytes(of: &v6) { Array($0) }
            // An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is the IPv4 address.
            bytes = raw.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff] ? Array(raw.suffix(4)) : raw
        } else {
            return nil
        }
    }
}

/// Address ranges (CIDR) whose `X-Forwarded-For` header is believed: `--trusted-proxy`.
public struct TrustedProxies: Sendable, Equatable {
    package struct Range: Equatable {
        package let network: [UInt8]
        package let prefix: Int

        package func contains(_ address: IPAddress) -> Bool {
            guard address.bytes.count == network.count else { return false }
            for index in 0..<network.count {
                let bits = max(0, min(8, prefix - index * 8))
                let mask: UInt8 = bits == 0 ? 0 : ~UInt8(0) << (8 - bits)
                if address.bytes[index] & mask != network[index] & mask { return false }
            }
            return true
        }
    }

    package let ranges: [Range]

    /// No proxy is trusted.
    public static let none = TrustedProxies(ranges: [])

    package init(ranges: [Range]) {
        self.ranges = ranges
    }

    /// Parses `a.b.c.d/n`, `x::y/n` or a single address; throws for anything else.
    public init(_ cidrs: [String]) throws {
        ranges = try cidrs.map { cidr in
            let parts = cidr.split(separator: "/", maxSplits: 1).map(String.init)
            guard let address = parts.first.flatMap(IPAddress.init) else { throw TrustedProxyError(cidr: cidr) }
            let width = address.bytes.count * 8
            let prefix = parts.count == 2 ? Int(parts[1]) : width
            guard let prefix, (0...width).contains(prefix) else { throw TrustedProxyError(cidr: cidr) }
            return Range(network: address.bytes, prefix: prefix)
        }
    }

    /// Whether an address lies in a trusted range.
    public func contains(_ text: String) -> Bool {
        guard let address = IPAddress(text) else { return false }
        return ranges.contains { $0.contains(address) }
    }
}

/// A `--trusted-proxy` value that is not an address or CIDR range.
public struct TrustedProxyError: Error, CustomStringConvertible {
    package let cidr: String
    public var description: String { "'\(cidr)' is not an IP address or CIDR range such as 10.0.0.0/8" }
}
