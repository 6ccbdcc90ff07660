/// Recognises the RTCP that some peers send in clear on an SRTP call to open NAT bindings:
/// baresip sends an RTCP APP packet named `PING` with the data `PONG` before SRTCP starts.
/// Such a datagram cannot authenticate, and is no attack: it is counted and ignored.
enum PlaintextKeepalive {
    private static let applicationDefined: UInt8 = 204
    private static let names: [[UInt8]] = [Array("PING".utf8), Array("PONG".utf8)]

    /// Whether `datagram` is exactly a compound of RTCP APP packets named `PING` or `PONG`,
    /// with no SRTCP index or tag after them.
    static func matches(_ datagram: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < datagram.count {
            guard datagram.count - offset >= 12, datagram[offset] >> 6 == 2, datagram[offset + 1] == applicationDefined else {
                return false
            }
            let length = ((Int(datagram[offset + 2]) << 8 | Int(datagram[offset + 3])) + 1) * 4
            guard length <= datagram.count - offset,
                names.contains(where: { $0.elementsEqual(datagram[(offset + 8)..<(offset + 12)]) })
            else { return false }
            offset += length
        }
        return offset == datagram.count && offset > 0
    }
}
