import RTP

extension FuzzTarget {
    /// The RTP module's SRTP and SDES fuzz targets.
    static let srtp: [FuzzTarget] = [sdesCrypto, srtpUnprotect]

    /// The SDES `a=crypto` parser on arbitrary text after `a=crypto:`; whatever parses must be
    /// written back to a line that parses to the same attribute.
    static let sdesCrypto = FuzzTarget(name: "sdes-crypto") { bytes in
        let line = "a=crypto:" + String(decoding: bytes, as: UTF8.self)
        guard let attribute = try? SDESCryptoAttribute(parsing: line) else { return }
        let reparsed = try? SDESCryptoAttribute(parsing: attribute.attributeLine)
        precondition(reparsed == attribute, "a written a=crypto line does not parse back")
    }

    /// Arbitrary octets unprotected as SRTP or SRTCP (first octet: suite and which) under a
    /// fixed key, which must refuse them; then protected and unprotected again, which must
    /// give them back whenever protect accepts them.
    static let srtpUnprotect = FuzzTarget(name: "srtp-unprotect") { bytes in
        guard let selector = bytes.first else { return }
        let suite = SRTPCryptoSuite.allCases[Int(selector & 0x7F) % SRTPCryptoSuite.allCases.count]
        let rtcp = selector & 0x80 != 0
        let packet = UnsafeRawBufferPointer(rebasing: bytes.dropFirst())
        guard let key = try? SRTPMasterKey(suite: suite, keyAndSalt: (0..<UInt8(suite.keyMaterialLength)).map { $0 &* 37 }),
            var sender = try? SRTPOutboundSession(key: key),
            var receiver = try? SRTPInboundSession(key: key)
        else { preconditionFailure("no SRTP session for \(suite)") }

        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: packet.count + suite.rtcpOverhead, alignment: 8)
        defer { buffer.deallocate() }
        buffer.copyMemory(from: packet)
        let forged = rtcp
            ? try? receiver.unprotectRTCP(in: buffer, length: packet.count)
            : try? receiver.unprotectRTP(in: buffer, length: packet.count)
        precondition(forged == nil, "a packet of arbitrary octets authenticated")

        buffer.copyMemory(from: packet)
        let protectedLength = rtcp
            ? try? sender.protectRTCP(in: buffer, length: packet.count)
            : try? sender.protectRTP(in: buffer, length: packet.count)
        guard let protectedLength else { return }
        let restoredLength = rtcp
            ? try? receiver.unprotectRTCP(in: buffer, length: protectedLength)
            : try? receiver.unprotectRTP(in: buffer, length: protectedLength)
        precondition(restoredLength == packet.count && buffer.prefix(packet.count).elementsEqual(packet),
                     "a packet we protected did not unprotect to itself")
    }
}
