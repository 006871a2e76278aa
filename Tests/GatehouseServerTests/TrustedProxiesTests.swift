import GatehouseHTTP
import Testing

/// `--trusted-proxy` ranges: IPv4 and IPv6 CIDR, single addresses, and refusal of nonsense.
@Suite struct TrustedProxiesTests {
    @Test(arguments: ["10.0.0.0/8", "127.0.0.1", "::1", "fd00::/8", "0.0.0.0/0"])
    func validRangesParse(range: String) throws {
        _ = try TrustedProxies([range])
    }

    @Test(arguments: ["", "10.0.0.0/33", "::1/129", "localhost", "10.0.0/8", "1.2.3.4/-1", "1.2.3.4/x"])
    func invalidRangesAreRefused(range: String) {
        #expect(throws: TrustedProxyError.self) { try TrustedProxies([range]) }
    }
}

extension TrustedProxiesTests {
    @Test func membershipFollowsThePrefix() throws {
        let proxies = try TrustedProxies(["10.0.0.0/8", "192.168.1.128/25", "fd00::/8"])
        #expect(proxies.contains("10.255.1.2"))
        #expect(!proxies.contains("11.0.0.1"))
        #expect(proxies.contains("192.168.1.200") && !proxies.contains("192.168.1.127"))
        #expect(proxies.contains("fd12::1") && !proxies.contains("fe80::1"))
        #expect(proxies.contains("::ffff:10.1.2.3"), "an IPv4-mapped IPv6 peer is its IPv4 address")
        #expect(!proxies.contains("not-an-address"))
        #expect(!TrustedProxies.none.contains("127.0.0.1"))
    }
}
