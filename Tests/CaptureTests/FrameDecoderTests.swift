import Capture
import Testing

@Suite("Frame decoder: link layers")
struct LinkLayerDecodingTests {
    @Test func ethernetIPv4AndIPv6() throws {
        #expect(TestFrames.decode(try TestFrames.ethernetIPv4(), as: .ethernet) == TestFrames.ipv4Datagram)
        #expect(TestFrames.decode(try TestFrames.ethernetIPv6(), as: .ethernet) == TestFrames.ipv6Datagram)
    }

    @Test(arguments: [[0x8100], [0x88A8, 0x8100], [0x9100, 0x88A8, 0x8100]] as [[UInt16]])
    func vlanTagsAreFollowed(tags: [UInt16]) throws {
        #expect(TestFrames.decode(try TestFrames.vlanTagged(tags), as: .ethernet) == TestFrames.ipv4Datagram)
    }

    @Test func vlanTagCutShortIsTruncated() throws {
        let frame = try TestFrames.vlanTagged([0x8100])
        #expect(TestFrames.decode(Array(frame.prefix(16)), as: .ethernet) == .skipped(.truncated))
    }

    @Test func ethernetPaddingIsIgnored() throws {
        let small = try UDPFrameBuilder.ethernetFrame(
            from: TestFrames.ipv4Source, to: TestFrames.ipv4Destination, payload: [1, 2, 3])
        let padded = small + [UInt8](repeating: 0, count: 60 - small.count)
        guard case .datagram(_, _, let payload, _) = TestFrames.decode(padded, as: .ethernet) else {
            Issue.record("padded frame not decoded")
            return
        }
        #expect(payload == [1, 2, 3])
    }

    @Test func nonIPEthernetIsSkipped() throws {
        var arp = try TestFrames.ethernetIPv4()
        arp.replaceSubrange(12..<14, with: [0x08, 0x06])
        #expect(TestFrames.decode(arp, as: .ethernet) == .skipped(.notIP))
        var llc = try TestFrames.ethernetIPv4()
        llc.replaceSubrange(12..<14, with: [0x00, 0x40])  // an 802.3 length, not an EtherType
        #expect(TestFrames.decode(llc, as: .ethernet) == .skipped(.notIP))
    }

    @Test func linuxCookedV1() throws {
        let ipv4 = TestFrames.linuxSLL(protocol: 0x0800, packet: try TestFrames.ipv4Packet())
        #expect(TestFrames.decode(ipv4, as: .linuxSLL) == TestFrames.ipv4Datagram)
        let ipv6 = TestFrames.linuxSLL(protocol: 0x86DD, packet: try TestFrames.ipv6Packet())
        #expect(TestFrames.decode(ipv6, as: .linuxSLL) == TestFrames.ipv6Datagram)
        let netlink = TestFrames.linuxSLL(protocol: 0x0800, hardwareType: 824, packet: try TestFrames.ipv4Packet())
        #expect(TestFrames.decode(netlink, as: .linuxSLL) == .skipped(.notIP))
        #expect(TestFrames.decode(Array(ipv4.prefix(15)), as: .linuxSLL) == .skipped(.truncated))
    }

    @Test func linuxCookedV2() throws {
        let ipv4 = TestFrames.linuxSLL2(protocol: 0x0800, packet: try TestFrames.ipv4Packet())
        #expect(TestFrames.decode(ipv4, as: .linuxSLL2) == TestFrames.ipv4Datagram)
        let ipv6 = TestFrames.linuxSLL2(protocol: 0x86DD, packet: try TestFrames.ipv6Packet())
        #expect(TestFrames.decode(ipv6, as: .linuxSLL2) == TestFrames.ipv6Datagram)
        let netlink = TestFrames.linuxSLL2(protocol: 0x0800, hardwareType: 824, packet: try TestFrames.ipv4Packet())
        #expect(TestFrames.decode(netlink, as: .linuxSLL2) == .skipped(.notIP))
        #expect(TestFrames.decode(Array(ipv4.prefix(19)), as: .linuxSLL2) == .skipped(.truncated))
    }

    @Test(arguments: [LinkType.raw, .rawIP])
    func rawIPByVersionNibble(linkType: LinkType) throws {
        #expect(TestFrames.decode(try TestFrames.ipv4Packet(), as: linkType) == TestFrames.ipv4Datagram)
        #expect(TestFrames.decode(try TestFrames.ipv6Packet(), as: linkType) == TestFrames.ipv6Datagram)
        var other = try TestFrames.ipv4Packet()
        other[0] = 0x55
        #expect(TestFrames.decode(other, as: linkType) == .skipped(.notIP))
        #expect(TestFrames.decode([], as: linkType) == .skipped(.truncated))
    }

    @Test func rawIPv4AndIPv6LinkTypes() throws {
        #expect(TestFrames.decode(try TestFrames.ipv4Packet(), as: .ipv4) == TestFrames.ipv4Datagram)
        #expect(TestFrames.decode(try TestFrames.ipv6Packet(), as: .ipv6) == TestFrames.ipv6Datagram)
    }

    @Test func bsdLoopbackInEitherByteOrder() throws {
        let ipv4 = try TestFrames.ipv4Packet()
        let ipv6 = try TestFrames.ipv6Packet()
        #expect(TestFrames.decode([2, 0, 0, 0] + ipv4, as: .null) == TestFrames.ipv4Datagram)  // little-endian host
        #expect(TestFrames.decode([0, 0, 0, 2] + ipv4, as: .null) == TestFrames.ipv4Datagram)  // big-endian host
        for family: UInt8 in [10, 24, 28, 30] {
            #expect(TestFrames.decode([family, 0, 0, 0] + ipv6, as: .null) == TestFrames.ipv6Datagram)
        }
        #expect(TestFrames.decode([0, 0, 0, 30] + ipv6, as: .loop) == TestFrames.ipv6Datagram)
        #expect(TestFrames.decode([7, 0, 0, 0] + ipv4, as: .null) == .skipped(.notIP))
        #expect(TestFrames.decode([2, 0, 0], as: .null) == .skipped(.truncated))
    }

    @Test func unknownLinkTypeIsSkipped() throws {
        let linkType = LinkType(rawValue: 147)
        #expect(!linkType.isDecodable)
        #expect(TestFrames.decode(try TestFrames.ethernetIPv4(), as: linkType) == .skipped(.unsupportedLinkType))
        #expect(linkType.description == "link type 147")
        #expect(LinkType.ethernet.description == "EN10MB (Ethernet, 1)")
        #expect(LinkType.linuxSLL2.description == "LINUX_SLL2 (Linux cooked v2, 276)")
    }
}

@Suite("Frame decoder: IPv4")
struct IPv4DecodingTests {
    /// The Ethernet + IPv4 test frame with `change` applied to its IPv4 header (offset 14).
    private func frame(_ change: (inout [UInt8]) -> Void) throws -> [UInt8] {
        var frame = try TestFrames.ethernetIPv4()
        change(&frame)
        return frame
    }

    @Test func fragmentsAreReportedNotParsed() throws {
        let firstFragment = try frame { $0[20] = 0x20 }  // MF set, offset 0
        #expect(TestFrames.decode(firstFragment, as: .ethernet) == .skipped(.fragment))
        let lastFragment = try frame {
            $0[20] = 0x00; $0[21] = 0xB9
        }  // offset 185 × 8 bytes
        #expect(TestFrames.decode(lastFragment, as: .ethernet) == .skipped(.fragment))
        let dontFragment = try frame {
            $0[20] = 0x40; $0[21] = 0
        }
        #expect(TestFrames.decode(dontFragment, as: .ethernet) == TestFrames.ipv4Datagram)
    }

    @Test func otherProtocolsAreNotUDP() throws {
        #expect(TestFrames.decode(try frame { $0[23] = 6 }, as: .ethernet) == .skipped(.notUDP))
        #expect(TestFrames.decode(try frame { $0[23] = 1 }, as: .ethernet) == .skipped(.notUDP))
    }

    @Test func headerOptionsAreSkipped() throws {
        var packet = try TestFrames.ipv4Packet()
        packet[0] = 0x46  // header length 24
        packet.insert(contentsOf: [1, 1, 1, 0], at: 20)  // NOP, NOP, NOP, end of options
        packet.replaceSubrange(2..<4, with: TestFrames.bigEndian(UInt16(packet.count)))
        #expect(TestFrames.decode(packet, as: .ipv4) == TestFrames.ipv4Datagram)
    }

    @Test func malformedHeadersAreSkipped() throws {
        let wrongVersion = try frame { $0[14] = 0x65 }
        let shortHeaderLength = try frame { $0[14] = 0x44 }
        let totalBelowHeader = try frame { $0.replaceSubrange(16..<18, with: [0, 19]) }
        let totalBeyondFrame = try frame { $0.replaceSubrange(16..<18, with: [0x05, 0xDC]) }
        for bad in [wrongVersion, shortHeaderLength, totalBelowHeader, totalBeyondFrame] {
            #expect(TestFrames.decode(bad, as: .ethernet) == .skipped(.malformedIPv4))
        }
    }
}

@Suite("Frame decoder: IPv6 extension headers")
struct IPv6DecodingTests {
    typealias Header = TestFrames.ExtensionHeader

    @Test func extensionHeadersAreWalked() throws {
        let chains: [[Header]] = [
            [.options(0)],
            [.options(0), .options(60), .routing, .options(60)],
            [.routing, .fragment(offset: 0, more: false)],  // an atomic fragment is a whole packet
            [.options(0), .authentication],
        ]
        for chain in chains {
            let packet = try TestFrames.ipv6Packet(extensionHeaders: chain)
            #expect(TestFrames.decode(packet, as: .ipv6) == TestFrames.ipv6Datagram, "chain \(chain.map(\.type))")
        }
    }

    @Test func fragmentsAreReportedNotParsed() throws {
        for fragment in [Header.fragment(offset: 0, more: true), .fragment(offset: 185, more: false)] {
            let packet = try TestFrames.ipv6Packet(extensionHeaders: [.options(0), fragment])
            #expect(TestFrames.decode(packet, as: .ipv6) == .skipped(.fragment))
        }
    }

    @Test func otherProtocolsAreNotUDP() throws {
        let esp = try TestFrames.ipv6Packet(extensionHeaders: [.options(0)], finalProtocol: 50)
        #expect(TestFrames.decode(esp, as: .ipv6) == .skipped(.notUDP))
        let noNextHeader = try TestFrames.ipv6Packet(extensionHeaders: [], finalProtocol: 59)
        #expect(TestFrames.decode(noNextHeader, as: .ipv6) == .skipped(.notUDP))
    }

    @Test func extensionHeaderBeyondPayloadIsMalformed() throws {
        let packet = try TestFrames.ipv6Packet(extensionHeaders: [.overlong(units: 200)])
        #expect(TestFrames.decode(packet, as: .ipv6) == .skipped(.malformedIPv6))
    }

    @Test func extensionHeaderCutByTheCaptureIsTruncated() throws {
        let packet = try TestFrames.ipv6Packet(extensionHeaders: [.options(0), .routing])
        #expect(
            TestFrames.decode(Array(packet.prefix(52)), as: .ipv6, originalLength: packet.count)
                == .skipped(.truncated))
    }

    @Test func payloadLengthBeyondFrameIsMalformed() throws {
        var packet = try TestFrames.ipv6Packet()
        packet.replaceSubrange(4..<6, with: [0x10, 0x00])
        #expect(TestFrames.decode(packet, as: .ipv6) == .skipped(.malformedIPv6))
        packet[0] = 0x40
        #expect(TestFrames.decode(packet, as: .ipv6) == .skipped(.malformedIPv6))
    }
}

@Suite("Frame decoder: UDP and cut frames")
struct UDPDecodingTests {
    @Test func udpLengthMustFitTheIPPayload() throws {
        var tooShort = try TestFrames.ipv4Packet()
        tooShort.replaceSubrange(24..<26, with: [0, 7])
        #expect(TestFrames.decode(tooShort, as: .ipv4) == .skipped(.malformedUDP))
        var tooLong = try TestFrames.ipv4Packet()
        tooLong.replaceSubrange(24..<26, with: TestFrames.bigEndian(UInt16(tooLong.count - 20 + 1)))
        #expect(TestFrames.decode(tooLong, as: .ipv4) == .skipped(.malformedUDP))
        var noRoomForUDP = Array(try TestFrames.ipv4Packet().prefix(26))
        noRoomForUDP.replaceSubrange(2..<4, with: [0, 26])
        #expect(TestFrames.decode(noRoomForUDP, as: .ipv4) == .skipped(.malformedUDP))
    }

    @Test func shorterUDPLengthTrimsThePayload() throws {
        var packet = try TestFrames.ipv4Packet()
        packet.replaceSubrange(24..<26, with: [0, 8 + 10])
        let expected = TestFrames.Decoded.datagram(
            source: TestFrames.ipv4Source, destination: TestFrames.ipv4Destination,
            payload: Array(TestFrames.payload.prefix(10)), declaredLength: 10)
        #expect(TestFrames.decode(packet, as: .ipv4) == expected)
    }

    /// Every prefix of a frame, as a capture with a small snapshot length would keep it: headers
    /// cut short are a truncated skip, a cut payload is still a datagram and says so.
    @Test func everySnapshotCutIsTruncatedOrACutDatagram() throws {
        let frames: [(bytes: [UInt8], linkType: LinkType, headers: Int)] = [
            (try TestFrames.ethernetIPv4(), .ethernet, 14 + 20 + 8),
            (try TestFrames.ethernetIPv6(), .ethernet, 14 + 40 + 8),
            (try TestFrames.vlanTagged([0x88A8, 0x8100]), .ethernet, 22 + 20 + 8),
            (TestFrames.linuxSLL2(protocol: 0x86DD, packet: try TestFrames.ipv6Packet()), .linuxSLL2, 20 + 40 + 8),
            (try TestFrames.ipv6Packet(extensionHeaders: [.options(0), .routing]), .ipv6, 40 + 32 + 8),
        ]
        for (bytes, linkType, headers) in frames {
            for length in 0..<bytes.count {
                let decoded = TestFrames.decode(Array(bytes.prefix(length)), as: linkType, originalLength: bytes.count)
                if length < headers {
                    #expect(decoded == .skipped(.truncated), "\(linkType) cut at \(length)")
                } else {
                    let payload = Array(TestFrames.payload.prefix(length - headers))
                    guard case .datagram(_, _, payload, TestFrames.payload.count) = decoded else {
                        Issue.record("\(linkType) cut at \(length): \(decoded)")
                        continue
                    }
                }
            }
        }
    }

    @Test func cutDatagramIsFlaggedAndCounted() throws {
        let frame = try TestFrames.ethernetIPv4()
        let cut = Array(frame.prefix(60))
        var statistics = CaptureStatistics()
        cut.withUnsafeBytes { bytes in
            let decoded = CaptureFrame(linkType: .ethernet, bytes: bytes, originalLength: frame.count).decodeUDP()
            guard case .datagram(let datagram) = decoded else {
                Issue.record("cut frame not decoded")
                return
            }
            #expect(datagram.isCut)
            #expect(datagram.payload.count == 60 - 42)
            statistics.count(decoded)
        }
        #expect(statistics.udpDatagrams == 1)
        #expect(statistics.cutDatagrams == 1)
    }

    @Test func statisticsCountEveryReason() throws {
        var statistics = CaptureStatistics()
        let reasons: [SkipReason] = [.fragment, .fragment, .notUDP, .truncated]
        for reason in reasons {
            statistics.count(.skipped(reason))
        }
        #expect(statistics.frames == 4)
        #expect(statistics.fragments == 2)
        #expect(statistics[.notUDP] == 1)
        #expect(statistics.skipped == 4)
        #expect(statistics.description == "frames=4, udp=0, not UDP=1, IP fragment=2, headers cut short=1")
    }
}
