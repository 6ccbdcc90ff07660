import Foundation

/// A minimal classic-pcap writer for interop tests: Ethernet + IPv4 + UDP around each payload.
/// (The Capture module owns the real writer; this keeps the RTP tests independent of it.)
struct PcapWriter {
    private(set) var data = Data()
    private var identification: UInt16 = 0

    init() {
        append32(0xA1B2_C3D4)  // magic, microsecond timestamps, written in host (little-endian) order
        append16(2)
        append16(4)
        append32(0)  // thiszone
        append32(0)  // sigfigs
        append32(65535)  // snaplen
        append32(1)  // LINKTYPE_ETHERNET
    }

    /// Appends one UDP datagram from 10.0.0.1:`sourcePort` to 10.0.0.2:`destinationPort`.
    mutating func append(payload: [UInt8], sourcePort: UInt16, destinationPort: UInt16, time: Double) {
        var frame: [UInt8] = [0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1, 0x08, 0x00]
        let udpLength = 8 + payload.count
        let totalLength = 20 + udpLength
        identification &+= 1
        var ip: [UInt8] = [
            0x45, 0, UInt8(totalLength >> 8), UInt8(totalLength & 0xFF),
            UInt8(identification >> 8), UInt8(identification & 0xFF), 0x40, 0, 64, 17, 0, 0,
            10, 0, 0, 1, 10, 0, 0, 2,
        ]
        var sum: UInt32 = 0
        for index in stride(from: 0, to: 20, by: 2) { sum += UInt32(ip[index]) << 8 | UInt32(ip[index + 1]) }
        while sum > 0xFFFF { sum = (sum & 0xFFFF) + (sum >> 16) }
        let checksum = ~UInt16(sum)
        ip[10] = UInt8(checksum >> 8)
        ip[11] = UInt8(checksum & 0xFF)
        let udp: [UInt8] = [
            UInt8(sourcePort >> 8), UInt8(sourcePort & 0xFF), UInt8(destinationPort >> 8), UInt8(destinationPort & 0xFF),
            UInt8(udpLength >> 8), UInt8(udpLength & 0xFF), 0, 0,
        ]
        frame += ip + udp + payload
        let seconds = time.rounded(.down)
        append32(UInt32(seconds))
        append32(UInt32(((time - seconds) * 1e6).rounded()))
        append32(UInt32(frame.count))
        append32(UInt32(frame.count))
        data.append(contentsOf: frame)
    }

    private mutating func append32(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    private mutating func append16(_ value: UInt16) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    /// Writes the capture to a fresh temporary file and returns its URL.
    func writeTemporaryFile(named name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rtp-tests-\(UUID().uuidString)-\(name).pcap")
        try data.write(to: url)
        return url
    }
}
