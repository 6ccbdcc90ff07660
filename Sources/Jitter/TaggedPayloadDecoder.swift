import Codecs

/// The decoder of a ``StreamPlayoutReplay``: every payload starts with a tag naming its packet
/// (the unwrapped sequence number and the packet's duration in output samples), followed by the
/// codec's bytes. The tag tells the replay exactly which packets were played; the codec's bytes
/// go to the real decoder. Without a codec (one the project cannot decode), or without codec
/// bytes (a payload the capture could not read), a played packet is silence of its duration.
struct TaggedPayloadDecoder: AudioDecoder {
    /// The tag's size: an 8-byte sequence number and a 4-byte duration, little-endian.
    static let tagBytes = 12

    let format: AudioFormat
    let rtpClockRate: Int
    private var codec: (any AudioDecoder)?
    /// The sequence numbers played (decoded, or recovered from FEC) since ``clearPlayed()``.
    private(set) var played: [UInt64] = []
    /// How many of ``played`` were recovered from FEC (they had not arrived).
    private(set) var recoveredCount = 0

    /// A decoder through `codec`, or producing silence when it is `nil` (then mono at
    /// `clockRate`).
    init(codec: (any AudioDecoder)?, clockRate: Int) {
        self.codec = codec
        format = codec.map { AudioFormat(sampleRate: $0.format.sampleRate, channels: $0.format.channels) }
            ?? AudioFormat(sampleRate: clockRate, channels: 1)
        rtpClockRate = codec?.rtpClockRate ?? clockRate
        played.reserveCapacity(16)
    }

    var supportsForwardErrorCorrection: Bool { codec?.supportsForwardErrorCorrection ?? false }

    /// Writes the tag of a packet into the first ``tagBytes`` of `payload`.
    static func writeTag(sequenceNumber: UInt64, samples: Int, into payload: UnsafeMutableRawBufferPointer) {
        guard payload.count >= tagBytes else { return }
        payload.storeBytes(of: sequenceNumber.littleEndian, toByteOffset: 0, as: UInt64.self)
        payload.storeBytes(of: UInt32(clamping: samples).littleEndian, toByteOffset: 8, as: UInt32.self)
    }

    /// Forgets the played sequence numbers (keeping the storage).
    mutating func clearPlayed() {
        played.removeAll(keepingCapacity: true)
        recoveredCount = 0
    }

    mutating func decode(
        _ payload: UnsafeRawBufferPointer, into pcm: UnsafeMutableBufferPointer<Int16>
    ) throws(CodecError) -> Int {
        let (sequence, samples, codecBytes) = try Self.untag(payload)
        played.append(sequence)
        if !codecBytes.isEmpty, let written = try codec?.decode(codecBytes, into: pcm) { return written }
        return silence(samples, into: pcm)
    }

    mutating func decode(lost samplesPerChannel: Int, into pcm: UnsafeMutableBufferPointer<Int16>) throws(CodecError) -> Int {
        if let written = try codec?.decode(lost: samplesPerChannel, into: pcm) { return written }
        return silence(samplesPerChannel, into: pcm)
    }

    mutating func decodeFEC(
        from nextPayload: UnsafeRawBufferPointer, samplesPerChannel: Int, into pcm: UnsafeMutableBufferPointer<Int16>
    ) throws(CodecError) -> Int {
        let (sequence, _, codecBytes) = try Self.untag(nextPayload)
        guard !codecBytes.isEmpty,
            let written = try codec?.decodeFEC(from: codecBytes, samplesPerChannel: samplesPerChannel, into: pcm)
        else { return try decode(lost: samplesPerChannel, into: pcm) }
        played.append(sequence &- 1)
        recoveredCount += 1
        return written
    }

    private static func untag(
        _ payload: UnsafeRawBufferPointer
    ) throws(CodecError) -> (sequence: UInt64, samples: Int, codecBytes: UnsafeRawBufferPointer) {
        guard payload.count >= tagBytes else {
            throw .invalidPayload("\(payload.count) bytes, shorter than the \(tagBytes)-byte replay tag")
        }
        let sequence = UInt64(littleEndian: payload.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
        let samples = Int(UInt32(littleEndian: payload.loadUnaligned(fromByteOffset: 8, as: UInt32.self)))
        return (sequence, samples, UnsafeRawBufferPointer(rebasing: payload[tagBytes...]))
    }

    /// `samples` per channel of silence (as many as fit).
    private func silence(_ samples: Int, into pcm: UnsafeMutableBufferPointer<Int16>) -> Int {
        let frames = min(max(samples, 0), pcm.count / max(format.channels, 1))
        for index in 0..<(frames * format.channels) { pcm[index] = 0 }
        return frames
    }
}
