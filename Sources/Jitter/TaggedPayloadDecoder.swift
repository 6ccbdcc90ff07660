import Codecs

/// The decoder of PlayoutLab's `StreamPlayoutReplay` (through a ``TaggedJitterBuffer``): every payload starts with a tag naming its packet
/// (the unwrapped sequence number and the packet's duration in output samples), followed by the
/// codec's bytes. The tag tells the replay exactly which packets were played; the codec's bytes
/// go to the real decoder. Without a codec (one the project cannot decode), or without codec
/// bytes (a payload the capture could not read), a played packet is silence of its duration.
/// Nothing is allocated per call once ``played`` has grown to the most played between drains.
package struct TaggedPayloadDecoder: AudioDecoder {
    /// The tag's size: an 8-byte sequence number and a 4-byte duration, little-endian.
    package static let tagBytes = 12

    package let format: AudioFormat
    package let rtpClockRate: Int
    /// The real decoder's: whether it blends its first frame after concealment itself (G.711
    /// Appendix I, Opus), so the buffer does not cross-fade it again, as on the live path.
    package let blendsAfterConcealment: Bool
    /// The real decoder, or ``SilentDecoder`` when there is none (non-optional, so that it is
    /// mutated in place).
    private var codec: any AudioDecoder
    /// The sequence numbers played (decoded, or recovered from FEC) since ``drainPlayed(_:)``:
    /// the first ``playedCount`` (the storage is kept and overwritten, never emptied).
    private var played: [UInt64] = []
    private var playedCount = 0
    /// How many of ``played`` were recovered from FEC (they had not arrived).
    private var recoveredCount = 0

    /// A decoder through `codec`, or producing silence when it is `nil` (then mono at
    /// `clockRate`).
    package init(codec: (any AudioDecoder)?, clockRate: Int) {
        let decoder = codec ?? SilentDecoder(clockRate: clockRate)
        self.codec = decoder
        format = decoder.format
        rtpClockRate = decoder.rtpClockRate
        blendsAfterConcealment = decoder.blendsAfterConcealment
        played.reserveCapacity(16)
    }

    package var supportsForwardErrorCorrection: Bool { codec.supportsForwardErrorCorrection }

    package func carriesForwardErrorCorrection(in nextPayload: UnsafeRawBufferPointer) -> Bool {
        guard let untagged = try? Self.untag(nextPayload), !untagged.codecBytes.isEmpty else { return false }
        return codec.carriesForwardErrorCorrection(in: untagged.codecBytes)
    }

    /// Writes the tag of a packet into the first ``tagBytes`` of `payload`.
    package static func writeTag(sequenceNumber: UInt64, samples: Int, into payload: UnsafeMutableRawBufferPointer) {
        guard payload.count >= tagBytes else { return }
        payload.storeBytes(of: sequenceNumber.littleEndian, toByteOffset: 0, as: UInt64.self)
        payload.storeBytes(of: UInt32(clamping: samples).littleEndian, toByteOffset: 8, as: UInt32.self)
    }

    /// Hands each sequence number played since the last call to `body`, in order, and forgets
    /// them (keeping the storage); returns how many of them were recovered from FEC.
    package mutating func drainPlayed(_ body: (UInt64) -> Void) -> Int {
        for index in 0..<playedCount { body(played[index]) }
        let recovered = recoveredCount
        playedCount = 0
        recoveredCount = 0
        return recovered
    }

    package mutating func decode(
        _ payload: UnsafeRawBufferPointer, into pcm: UnsafeMutableBufferPointer<Int16>
    ) throws(CodecError) -> Int {
        let (sequence, samples, codecBytes) = try Self.untag(payload)
        recordPlayed(sequence)
        guard !codecBytes.isEmpty else { return silence(samples, into: pcm) }
        return try codec.decode(codecBytes, into: pcm)
    }

    package mutating func decode(lost samplesPerChannel: Int, into pcm: UnsafeMutableBufferPointer<Int16>) throws(CodecError) -> Int {
        try codec.decode(lost: samplesPerChannel, into: pcm)
    }

    package mutating func decodeFEC(
        from nextPayload: UnsafeRawBufferPointer, samplesPerChannel: Int, into pcm: UnsafeMutableBufferPointer<Int16>
    ) throws(CodecError) -> Int {
        let (sequence, _, codecBytes) = try Self.untag(nextPayload)
        guard !codecBytes.isEmpty else { return try decode(lost: samplesPerChannel, into: pcm) }
        let written = try codec.decodeFEC(from: codecBytes, samplesPerChannel: samplesPerChannel, into: pcm)
        recordPlayed(sequence &- 1)
        recoveredCount += 1
        return written
    }

    private mutating func recordPlayed(_ sequence: UInt64) {
        if playedCount < played.count {
            played[playedCount] = sequence
        } else {
            played.append(sequence)
        }
        playedCount += 1
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
        SilentDecoder.silence(samples, channels: format.channels, into: pcm)
    }
}

/// The codec of a stream the project cannot decode: mono at the clock rate, silence for
/// everything (the replay gives it no payload bytes, only the tag's duration).
private struct SilentDecoder: AudioDecoder {
    let format: AudioFormat
    let rtpClockRate: Int
    var supportsForwardErrorCorrection: Bool { false }

    init(clockRate: Int) {
        format = AudioFormat(sampleRate: clockRate, channels: 1)
        rtpClockRate = clockRate
    }

    /// `samples` per channel of silence, as many as fit in `pcm`.
    static func silence(_ samples: Int, channels: Int, into pcm: UnsafeMutableBufferPointer<Int16>) -> Int {
        let frames = min(max(samples, 0), pcm.count / max(channels, 1))
        for index in 0..<(frames * max(channels, 1)) { pcm[index] = 0 }
        return frames
    }

    func decode(_ payload: UnsafeRawBufferPointer, into pcm: UnsafeMutableBufferPointer<Int16>) throws(CodecError) -> Int {
        Self.silence(payload.count, channels: 1, into: pcm)
    }

    func decode(lost samplesPerChannel: Int, into pcm: UnsafeMutableBufferPointer<Int16>) throws(CodecError) -> Int {
        Self.silence(samplesPerChannel, channels: 1, into: pcm)
    }

    func decodeFEC(
        from nextPayload: UnsafeRawBufferPointer, samplesPerChannel: Int, into pcm: UnsafeMutableBufferPointer<Int16>
    ) throws(CodecError) -> Int {
        Self.silence(samplesPerChannel, channels: 1, into: pcm)
    }
}
