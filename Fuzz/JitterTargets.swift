import Codecs
import Jitter
import PlayoutLab

extension FuzzTarget {
    /// The Jitter module's fuzz targets.
    static let jitter: [FuzzTarget] = [jitterBuffer]

    /// Random packets (any sequence number, timestamp, SSRC, marker, payload type and size) and
    /// arrival times interleaved with pulls at a jittery clock: the buffer must never trap and
    /// never hold more packets than its capacity.
    static let jitterBuffer = FuzzTarget(name: "jitter-buffer") { bytes in
        var configuration = JitterBufferConfiguration()
        configuration.packetCapacity = 16
        configuration.maximumPayloadBytes = 200
        var buffer = JitterBuffer(decoder: ByteDecoder(), configuration: configuration)
        var pcm = [Int16](repeating: 0, count: buffer.samplesPerPull)
        var payload = [UInt8](repeating: 0, count: 255)
        var reader = ByteReader(bytes: bytes)
        var now = 0.0
        while let operation = reader.byte() {
            if operation & 1 == 0 {
                guard let sequence = reader.uint16(), let timestamp = reader.uint32(), let flags = reader.byte(),
                    let lateness = reader.uint16(), let length = reader.byte()
                else { return }
                for index in 0..<Int(length) { payload[index] = reader.byte() ?? UInt8(truncatingIfNeeded: index) }
                let arrival = now - 50 + Double(lateness) / 100  // up to 605 ms either side of now
                payload.withUnsafeBytes { storage in
                    let packet = IncomingPacket(
                        sequenceNumber: sequence, timestamp: timestamp, marker: flags & 0x80 != 0,
                        payloadType: flags & 0x0F == 0x0D ? 13 : 0, ssrc: UInt32(flags >> 5 & 0x3),
                        payload: UnsafeRawBufferPointer(rebasing: storage[0..<Int(length)])
                    )
                    buffer.insert(packet, arrivalMilliseconds: arrival)
                }
            } else {
                now += 10 + Double(operation >> 1) / 16 - 4  // a drifting, jittery audio clock
                _ = pcm.withUnsafeMutableBufferPointer { buffer.pull(into: $0, nowMilliseconds: now) }
            }
            precondition(buffer.storedPacketCount <= configuration.packetCapacity, "store over capacity")
        }
    }
}

/// Reads the fuzz input front to back.
private struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    mutating func byte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint16() -> UInt16? {
        guard let high = byte(), let low = byte() else { return nil }
        return UInt16(high) << 8 | UInt16(low)
    }

    mutating func uint32() -> UInt32? {
        guard let high = uint16(), let low = uint16() else { return nil }
        return UInt32(high) << 16 | UInt32(low)
    }
}

/// A codec of any frame size: each payload byte is one sample; the first byte, when it is
/// 0xFF, makes the payload undecodable. Concealment repeats silence; FEC is claimed but fails.
private struct ByteDecoder: AudioDecoder {
    let format = AudioFormat(sampleRate: 8000, channels: 1)
    let rtpClockRate = 8000
    let supportsForwardErrorCorrection = true

    func decode(_ payload: UnsafeRawBufferPointer, into pcm: UnsafeMutableBufferPointer<Int16>) throws(CodecError) -> Int {
        if payload.first == 0xFF { throw .invalidPayload("marked undecodable") }
        let count = min(payload.count, pcm.count)
        for index in 0..<count { pcm[index] = Int16(Int8(bitPattern: payload[index])) << 8 }
        return count
    }

    func decode(lost samplesPerChannel: Int, into pcm: UnsafeMutableBufferPointer<Int16>) throws(CodecError) -> Int {
        let count = min(max(samplesPerChannel, 0), pcm.count)
        for index in 0..<count { pcm[index] = 0 }
        return count
    }

    func decodeFEC(
        from nextPayload: UnsafeRawBufferPointer, samplesPerChannel: Int, into pcm: UnsafeMutableBufferPointer<Int16>
    ) throws(CodecError) -> Int {
        throw .invalidPayload("no redundancy")
    }
}
