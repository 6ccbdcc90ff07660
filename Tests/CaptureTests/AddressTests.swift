import Capture
import Testing

@Suite("IP addresses and endpoints")
struct AddressTests {
    @Test func ipv4TextRoundTrips() throws {
        let address = try #require(IPv4Address("192.0.2.255"))
        #expect(address.rawValue == 0xC000_02FF)
        #expect(address == IPv4Address(192, 0, 2, 255))
        #expect(address.description == "192.0.2.255")
        #expect(IPv4Address("0.0.0.0")?.rawValue == 0)
    }

    @Test(arguments: ["", "1.2.3", "1.2.3.4.5", "256.1.1.1", "01.2.3.4", "1..2.3", "1.2.3.4 ", "a.b.c.d", "1.2.3.-4"])
    func invalidIPv4TextIsRejected(text: String) {
        #expect(IPv4Address(text) == nil)
    }

    /// Canonical forms from RFC 5952 sections 4 and 5.
    @Test(arguments: [
        ("2001:db8:0:0:0:0:2:1", "2001:db8::2:1"),
        ("2001:0db8:0000:0000:0000:0000:0002:0001", "2001:db8::2:1"),
        ("2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"),  // one zero group is not shortened
        ("2001:0:0:1:0:0:0:1", "2001:0:0:1::1"),  // the longest run is shortened
        ("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"),  // the first of equal runs
        ("2001:DB8::AbCd", "2001:db8::abcd"),
        ("::", "::"),
        ("::1", "::1"),
        ("1::", "1::"),
        ("::ffff:192.0.2.1", "::ffff:192.0.2.1"),
        ("::ffff:c000:0201", "::ffff:192.0.2.1"),
        ("64:ff9b::192.0.2.33", "64:ff9b::c000:221"),
        ("fe80:0:0:0:0:0:0:0", "fe80::"),
    ])
    func ipv6TextIsCanonical(input: String, canonical: String) throws {
        let address = try #require(IPv6Address(input))
        #expect(address.description == canonical)
        #expect(IPv6Address(canonical) == address)
    }

    @Test(arguments: [
        "", ":", ":::", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "1::2::3", "12345::", "1:2:3:4:5:6:7:8::",
        "::1.2.3", "1.2.3.4::", "fe80::1%eth0", "g::1", ":1:2:3:4:5:6:7", "1:2:3:4:5:6:7:", "+1::", "::-0",
        "::ffff:01.2.3.4", "１::",
    ])
    func invalidIPv6TextIsRejected(text: String) {
        #expect(IPv6Address(text) == nil)
    }

    @Test func ipv6GroupsAndHalves() throws {
        let address = try #require(IPv6Address("2001:db8:1:2:3:4:5:6"))
        #expect(address.high == 0x2001_0db8_0001_0002)
        #expect(address.low == 0x0003_0004_0005_0006)
        #expect(address.groups == [0x2001, 0xdb8, 1, 2, 3, 4, 5, 6])
        #expect(IPv6Address(groups: address.groups) == address)
        #expect(IPv6Address(groups: [1, 2]) == nil)
    }

    @Test func addressesAndEndpointsPrintAndParse() throws {
        #expect(IPAddress("10.1.2.3") == .v4(IPv4Address(10, 1, 2, 3)))
        #expect(IPAddress("2001:db8::1")?.description == "2001:db8::1")
        #expect(IPAddress("example.org") == nil)
        let v4 = UDPEndpoint(address: .v4(IPv4Address(10, 0, 0, 1)), port: 5004)
        let v6 = UDPEndpoint(address: try #require(IPAddress("2001:db8::1")), port: 5004)
        #expect(v4.description == "10.0.0.1:5004")
        #expect(v6.description == "[2001:db8::1]:5004")
        #expect(v4 < v6)
    }
}

@Suite("Capture timestamps")
struct CaptureTimestampTests {
    @Test func secondsAndFractionSplitTowardsNegativeInfinity() {
        let after = CaptureTimestamp(seconds: 1_700_000_000, nanoseconds: 123_456_789)
        #expect(after.nanosecondsSinceEpoch == 1_700_000_000_123_456_789)
        #expect(after.seconds == 1_700_000_000)
        #expect(after.nanosecondsOfSecond == 123_456_789)
        #expect(after.description == "1700000000.123456789")
        let before = CaptureTimestamp(nanosecondsSinceEpoch: -1)
        #expect(before.seconds == -1)
        #expect(before.nanosecondsOfSecond == 999_999_999)
        #expect(CaptureTimestamp(nanosecondsSinceEpoch: 5_000).description == "0.000005000")
    }

    @Test func absurdSecondsSaturateInsteadOfTrapping() {
        #expect(CaptureTimestamp(seconds: .max, nanoseconds: 0).nanosecondsSinceEpoch == .max)
        #expect(CaptureTimestamp(seconds: .min, nanoseconds: 0).nanosecondsSinceEpoch == .min)
        #expect(CaptureTimestamp(seconds: 9_223_372_036, nanoseconds: 999_999_999).nanosecondsSinceEpoch == .max)
    }

    @Test func differencesWrapInsteadOfTrapping() {
        let late = CaptureTimestamp(seconds: 10, nanoseconds: 500)
        let early = CaptureTimestamp(seconds: 9, nanoseconds: 0)
        #expect(late.nanoseconds(since: early) == 1_000_000_500)
        #expect(early < late)
        _ = CaptureTimestamp(nanosecondsSinceEpoch: .min).nanoseconds(since: late)
    }
}
