import Testing
import RTP

@Suite("RTP packets")
struct RTPPacketTests {
    /// RFC 6904 Appendix A's plaintext packet: one-byte extension elements 1–4 and a padding byte.
    static let rfc6904Packet = hexBytes(
        "900f1234decafbadcafebabebede000617414273a475262748220000c8308e4655996386b395fb00"
            + "abababababababababababababababab")

    @Test("RFC 6904 A packet: header fields and one-byte extension elements")
    func knownAnswerOneByteExtension() throws {
        try withPacket(Self.rfc6904Packet) { packet in
            #expect(packet.version == 2)
            #expect(!packet.hasPadding && packet.hasExtension && !packet.marker)
            #expect(packet.payloadType == 15)
            #expect(packet.sequenceNumber == SequenceNumber(0x1234))
            #expect(packet.timestamp == RTPTimestamp(0xDECA_FBAD))
            #expect(packet.ssrc == 0xCAFE_BABE)
            #expect(packet.csrcs.isEmpty)
            #expect(packet.headerLength == 12 + 4 + 24)
            let headerExtension = try #require(packet.headerExtension)
            #expect(headerExtension.profile == 0xBEDE && headerExtension.form == .oneByte)
            let elements = headerExtension.elements.map { ($0.id, hexString(array($0.data))) }
            #expect(elements.map(\.0) == [1, 2, 3, 4])
            #expect(elements.map(\.1) == ["414273a475262748", "0000c8", "8e", "55996386b395fb"])
            #expect(array(packet.payload) == [UInt8](repeating: 0xAB, count: 16))
        }
    }

    @Test("Builder reproduces the RFC 6904 packet byte for byte")
    func builderKnownAnswer() throws {
        let elements: [(UInt8, [UInt8])] = [
            (1, hexBytes("414273a475262748")), (2, hexBytes("0000c8")), (3, hexBytes("8e")), (4, hexBytes("55996386b395fb")),
        ]
        let built = try build { buffer in
            var builder = try RTPPacketBuilder(
                into: buffer,
                header: RTPHeaderFields(payloadType: 15, sequenceNumber: SequenceNumber(0x1234), timestamp: RTPTimestamp(0xDECA_FBAD), ssrc: 0xCAFE_BABE),
                extensionForm: .oneByte)
            for (id, data) in elements {
                try data.withUnsafeBytes { try builder.appendExtensionElement(id: id, data: $0) }
            }
            try [UInt8](repeating: 0xAB, count: 16).withUnsafeBytes { try builder.appendPayload($0) }
            return try builder.finish()
        }
        #expect(built == Self.rfc6904Packet)
    }

    @Test("Round trip: CSRCs, two-byte extension, marker, padding")
    func roundTripEverything() throws {
        let csrcs: [UInt32] = Array(1...15)
        let payload: [UInt8] = Array(0..<100)
        let header = RTPHeaderFields(marker: true, payloadType: 111, sequenceNumber: SequenceNumber(65535), timestamp: RTPTimestamp(.max), ssrc: 0x1234_5678)
        let built = try build { buffer in
            var builder = try RTPPacketBuilder(into: buffer, header: header, csrcs: csrcs, extensionForm: .twoByte)
            try [UInt8](repeating: 7, count: 17).withUnsafeBytes { try builder.appendExtensionElement(id: 200, data: $0) }
            try [UInt8]().withUnsafeBytes { try builder.appendExtensionElement(id: 3, data: $0) }
            try payload.withUnsafeBytes { try builder.appendPayload($0) }
            return try builder.finish(paddingLength: 7)
        }
        try withPacket(built) { packet in
            #expect(packet.marker && packet.hasPadding && packet.paddingLength == 7)
            #expect(packet.payloadType == 111)
            #expect(packet.sequenceNumber.rawValue == 65535 && packet.timestamp.rawValue == .max)
            #expect(Array(packet.csrcs) == csrcs)
            let headerExtension = try #require(packet.headerExtension)
            #expect(headerExtension.form == .twoByte)
            let elements = Array(headerExtension.elements)
            #expect(elements.map(\.id) == [200, 3])
            #expect(elements.map(\.data.count) == [17, 0])
            #expect(array(packet.payload) == payload)
        }
        #expect(built.last == 7)
    }

    @Test("Payload written in place by an encoder")
    func writePayloadInPlace() throws {
        let built = try build(capacity: 172) { buffer in
            var builder = try RTPPacketBuilder(
                into: buffer, header: RTPHeaderFields(payloadType: 0, sequenceNumber: SequenceNumber(1), timestamp: RTPTimestamp(160), ssrc: 9))
            let space = try builder.payloadSpace()
            #expect(space.count == 160)
            for index in 0..<160 { space[index] = 0xFF }
            #expect(rtpError { try builder.commitPayload(byteCount: 161) }?.reason == .bufferTooSmall(needed: 173, available: 172))
            try builder.commitPayload(byteCount: 160)
            return try builder.finish()
        }
        #expect(built.count == 172)
        try withPacket(built) { #expect(array($0.payload) == [UInt8](repeating: 0xFF, count: 160)) }
    }

    @Test("One-byte extension: ID 0 is padding, ID 15 stops parsing")
    func oneByteSpecialIDs() throws {
        // Elements: pad, ID 5 (2 bytes), pad, ID 15 (stop), then bytes that would be an overrun.
        let packet =
            hexBytes("9000000100000002000000 03 bede0002 00 51aabb 00 f0 ffff")
            + [0x60]
        try withPacket(packet) { view in
            let elements = Array(try #require(view.headerExtension).elements)
            #expect(elements.map(\.id) == [5])
            #expect(array(elements[0].data) == [0xAA, 0xBB])
        }
    }

    @Test("Unknown extension profile is exposed raw and skipped")
    func unknownProfile() throws {
        let packet = hexBytes("900000010000000200000003 abcd0001 deadbeef 11")
        try withPacket(packet) { view in
            let headerExtension = try #require(view.headerExtension)
            #expect(headerExtension.profile == 0xABCD && headerExtension.form == nil)
            #expect(array(headerExtension.data) == [0xDE, 0xAD, 0xBE, 0xEF])
            #expect(Array(headerExtension.elements).isEmpty)
            #expect(array(view.payload) == [0x11])
        }
    }

    @Test(
        "Malformed packets throw typed errors naming what and where",
        arguments: [
            ("8000000100000002000000", RTPError(.truncated(needed: 12, available: 11), at: 0)),
            ("400000010000000200000003", RTPError(.unsupportedVersion(1), at: 0)),
            ("820000010000000200000003 00000004", RTPError(.truncated(needed: 8, available: 4), at: 12)),
            ("900000010000000200000003 bede00", RTPError(.truncated(needed: 4, available: 3), at: 12)),
            ("900000010000000200000003 bede0002 00000000", RTPError(.truncated(needed: 12, available: 8), at: 12)),
            ("a00000010000000200000003 aabb00", RTPError(.invalidPadding(count: 0, available: 3), at: 14)),
            ("a00000010000000200000003 aabb04", RTPError(.invalidPadding(count: 4, available: 3), at: 14)),
            ("a00000010000000200000003", RTPError(.invalidPadding(count: 0, available: 0), at: 12)),
        ])
    func malformed(hex: String, expected: RTPError) {
        let bytes = hexBytes(hex)
        let error = bytes.withUnsafeBytes { raw in rtpError { _ = try RTPPacket(raw) } }
        #expect(error == expected)
        #expect(error?.description.contains("at byte \(expected.offset)") == true)
    }

    @Test(
        "An element overrunning its extension ends the element list; the packet stays valid",
        arguments: [
            ("900000010000000200000003 bede0001 00003f00", [UInt8]()),
            ("900000010000000200000003 bede0002 10aa 3f00 00000000", [1]),
            ("900000010000000200000003 10000001 0503aabb", []),
            ("900000010000000200000003 10000001 000000ff", []),
            ("900000010000000200000003 10000002 0101aa00 000000ff", [1]),
        ])
    func overrunningElements(hex: String, ids: [UInt8]) throws {
        try withPacket(hexBytes(hex)) { packet in
            let headerExtension = try #require(packet.headerExtension)
            #expect(!headerExtension.elementsAreWellFormed)
            #expect(headerExtension.elements.map(\.id) == ids)
        }
        try withPacket(Self.rfc6904Packet) { #expect($0.headerExtension?.elementsAreWellFormed == true) }
    }

    @Test("Padding that takes the whole payload is valid")
    func paddingOnly() throws {
        try withPacket(hexBytes("a00000010000000200000003 000003")) { view in
            #expect(view.paddingLength == 3 && view.payload.isEmpty)
        }
    }

    @Test("Builder errors: small buffer, bad fields, out of order")
    func builderErrors() throws {
        let header = RTPHeaderFields(payloadType: 8, sequenceNumber: SequenceNumber(1), timestamp: RTPTimestamp(1), ssrc: 1)
        var small = [UInt8](repeating: 0, count: 11)
        let tooSmall = small.withUnsafeMutableBytes { buffer in rtpError { _ = try RTPPacketBuilder(into: buffer, header: header) } }
        #expect(tooSmall?.reason == .bufferTooSmall(needed: 12, available: 11))
        var buffer = [UInt8](repeating: 0, count: 64)
        buffer.withUnsafeMutableBytes { buffer in
            var badType = header
            badType.payloadType = 128
            #expect(rtpError { _ = try RTPPacketBuilder(into: buffer, header: badType) }?.reason == .valueOutOfRange(field: .payloadType, value: 128))
            #expect(
                rtpError { _ = try RTPPacketBuilder(into: buffer, header: header, csrcs: Array(0...15)) }?.reason
                    == .valueOutOfRange(field: .csrcCount, value: 16))
            let data: [UInt8] = [1]
            data.withUnsafeBytes { data in
                #expect(
                    rtpError {
                        var builder = try RTPPacketBuilder(into: buffer, header: header, extensionForm: .oneByte)
                        try builder.appendExtensionElement(id: 15, data: data)
                    }?.reason == .valueOutOfRange(field: .extensionID, value: 15))
                #expect(
                    rtpError {
                        var builder = try RTPPacketBuilder(into: buffer, header: header)
                        try builder.appendExtensionElement(id: 1, data: data)
                    }?.reason == .builderOutOfOrder)
                #expect(
                    rtpError {
                        var builder = try RTPPacketBuilder(into: buffer, header: header, extensionForm: .oneByte)
                        try builder.appendPayload(data)
                        try builder.appendExtensionElement(id: 1, data: data)
                    }?.reason == .builderOutOfOrder)
                #expect(
                    rtpError {
                        var builder = try RTPPacketBuilder(into: buffer, header: header)
                        _ = try builder.finish(paddingLength: 256)
                    }?.reason == .valueOutOfRange(field: .paddingLength, value: 256))
                #expect(
                    rtpError {
                        var builder = try RTPPacketBuilder(into: buffer, header: header)
                        _ = try builder.finish()
                        try builder.appendPayload(data)
                    }?.reason == .builderOutOfOrder)
            }
        }
    }
}
