/// The fields of a UDP header and the payload they describe.
struct UDPHeader {
    let sourcePort: UInt16
    let destinationPort: UInt16
    let payload: UnsafeRawBufferPointer
    let declaredPayloadLength: Int
}

/// UDP decoding: the last layer.
extension FrameDecoder {
    /// The UDP header at the start of `packet`'s payload; the payload view is cut to the captured bytes.
    func udpHeader(in packet: IPPayload) throws(Skip) -> UDPHeader {
        let start = packet.start
        guard packet.end - start >= 8 else { throw Skip(.malformedUDP) }
        try require(start + 8)
        let length = Int(uint16(at: start + 4))
        guard length >= 8, length <= packet.end - start else { throw Skip(.malformedUDP) }
        let capturedEnd = min(start + length, bytes.count)
        return UDPHeader(
            sourcePort: uint16(at: start),
            destinationPort: uint16(at: start + 2),
            payload: UnsafeRawBufferPointer(rebasing: bytes[(start + 8)..<capturedEnd]),
            declaredPayloadLength: length - 8
        )
    }
}
