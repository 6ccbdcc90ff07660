import BenchmarkHarness
import RTP

extension BenchmarkSuite {
    /// RTP header parse+validate and build, side by side with libre's RTP header code
    /// (`Benchmarks/peers/rtp-libre.c`), on the same packets.
    static let rtp = BenchmarkSuite(
        name: "rtp",
        summary: "RTP parse+validate (plain and with RFC 8285 extension) and build, vs libre"
    ) { context in
        let plain = RTPBenchmarkPackets.make(withExtension: false)
        let extended = RTPBenchmarkPackets.make(withExtension: true)
        let output = UnsafeMutableRawBufferPointer.allocate(byteCount: 1500, alignment: 8)
        let payload = UnsafeMutableRawBufferPointer.allocate(byteCount: 160, alignment: 8)
        defer {
            plain.deallocate()
            extended.deallocate()
            output.deallocate()
            payload.deallocate()
        }
        payload.initializeMemory(as: UInt8.self, repeating: 0xD5)
        let peer = PeerProgram("rtp-libre", pkgConfigPackages: ["libre"])

        // Validate the packet, then read what a receiver needs: header fields and payload.
        context.measure(
            BenchmarkCase(
                "parse-header", countsAllocations: true,
                implementations: [
                    .ours { iterations in
                        let bytes = UnsafeRawBufferPointer(plain)
                        for _ in 0..<iterations {
                            let packet = try RTPPacket(bytes)
                            blackHole(
                                UInt64(packet.sequenceNumber.rawValue) &+ UInt64(packet.timestamp.rawValue) &+ UInt64(packet.ssrc)
                                    &+ UInt64(packet.payloadType) &+ (packet.marker ? 1 : 0) &+ UInt64(packet.payload.count))
                        }
                    },
                    .program(peer),
                ]))
        // The same with a one-byte header extension whose elements are walked.
        context.measure(
            BenchmarkCase(
                "parse-extension", countsAllocations: true,
                implementations: [
                    .ours { iterations in
                        let bytes = UnsafeRawBufferPointer(extended)
                        for _ in 0..<iterations {
                            let packet = try RTPPacket(bytes)
                            var sum =
                                UInt64(packet.sequenceNumber.rawValue) &+ UInt64(packet.timestamp.rawValue)
                                &+ UInt64(packet.ssrc) &+ UInt64(packet.payload.count)
                            if let headerExtension = packet.headerExtension {
                                for element in headerExtension.elements { sum &+= UInt64(element.id) &+ UInt64(element.data[0]) }
                            }
                            blackHole(sum)
                        }
                    },
                    .program(peer),
                ]))
        // Header fields and 160 bytes of payload written into a caller's buffer.
        context.measure(
            BenchmarkCase(
                "build", countsAllocations: true,
                implementations: [
                    .ours { iterations in
                        let source = UnsafeRawBufferPointer(payload)
                        for iteration in 0..<iterations {
                            let header = RTPHeaderFields(
                                payloadType: 0, sequenceNumber: SequenceNumber(UInt16(truncatingIfNeeded: iteration)),
                                timestamp: RTPTimestamp(UInt32(truncatingIfNeeded: iteration &* 160)), ssrc: 0xDEAD_BEEF)
                            var builder = try RTPPacketBuilder(into: output, header: header)
                            try builder.appendPayload(source)
                            blackHole(try builder.finish())
                        }
                    },
                    .program(peer),
                ]))
    }
}

/// The packets of the `rtp` suite, byte for byte those of the libre peer.
enum RTPBenchmarkPackets {
    /// PCMU with 160 bytes of payload; with an extension, a one-byte header extension holding an
    /// audio level (ID 1) and a transmission offset (ID 2). The caller deallocates it.
    static func make(withExtension: Bool) -> UnsafeMutableRawBufferPointer {
        let plainHeader: [UInt8] = [0x80, 0x00, 0x12, 0x34, 0x00, 0x00, 0xA0, 0x00, 0xDE, 0xAD, 0xBE, 0xEF]
        let extendedHeader: [UInt8] = [
            0x90, 0x00, 0x12, 0x34, 0x00, 0x00, 0xA0, 0x00, 0xDE, 0xAD, 0xBE, 0xEF,
            0xBE, 0xDE, 0x00, 0x02, 0x10, 0xAA, 0x22, 0x00, 0x01, 0x02, 0x00, 0x00,
        ]
        let header = withExtension ? extendedHeader : plainHeader
        let packet = UnsafeMutableRawBufferPointer.allocate(byteCount: header.count + 160, alignment: 8)
        packet.initializeMemory(as: UInt8.self, repeating: 0xD5)
        packet.copyBytes(from: header)
        return packet
    }
}
