internal import CMediaShims
internal import COpus

/// What an Opus packet holds, read from its TOC byte and framing without decoding it
/// (RFC 6716 §3). Inspecting allocates nothing.
public struct OpusPacketInfo: Sendable, Hashable {
    /// The codec layer a packet was coded with (RFC 6716 §3.1).
    public enum Mode: Sendable, Hashable {
        /// SILK, the linear-prediction speech layer (configurations 0–11).
        case silk
        /// SILK below 8 kHz plus CELT above (configurations 12–15).
        case hybrid
        /// CELT, the transform layer (configurations 16–31).
        case celt
    }

    /// The codec layer of every frame in the packet.
    public let mode: Mode
    /// The audio bandwidth of every frame in the packet.
    public let bandwidth: OpusBandwidth
    /// 1 for a mono packet, 2 for stereo.
    public let channels: Int
    /// The number of Opus frames in the packet (1 to 48).
    public let frameCount: Int
    /// Samples per channel in each frame, counted at 48 kHz (120 to 2880).
    public let samplesPerFrameAt48kHz: Int
    /// Whether the first frame carries low-bitrate redundancy (LBRR, in-band FEC) for the frame
    /// before the packet, so ``OpusDecoder/decodeFEC(from:samplesPerChannel:into:)`` can recover it.
    ///
    /// libopus 1.3.1 has no call for this; it is read from the bits as RFC 6716 lays them out.
    /// Only SILK and hybrid frames carry LBRR. A SILK frame begins with header bits coded by the
    /// range coder with probability ½ each (§4.2.3): for each channel coded (mid, then side when
    /// stereo), one voice-activity flag per 20 ms SILK frame (one for a 10 or 20 ms Opus frame,
    /// two for 40 ms, three for 60 ms) followed by one LBRR flag. A range coder fed only ½
    /// probabilities emits those bits unchanged at the top of the first byte (§4.1), so,
    /// counting from 0 at the most significant bit of the frame's first byte, the mid channel's
    /// LBRR flag is bit `n` and, in stereo, the side channel's is bit `2n + 1`, where `n` is the
    /// number of voice-activity flags per channel. Either flag set means FEC is present. An empty
    /// first frame (DTX) carries none. Tests check this reading against libopus' own FEC decoding.
    public let hasFEC: Bool

    /// The total duration in samples per channel at 48 kHz.
    public var samplesPerChannelAt48kHz: Int { frameCount * samplesPerFrameAt48kHz }

    /// The total duration in samples per channel at `sampleRate` hertz (an Opus rate).
    public func samplesPerChannel(sampleRate: Int) -> Int {
        samplesPerChannelAt48kHz * sampleRate / 48_000
    }

    /// Inspects `packet`, throwing ``OpusPacketError`` when it is empty or its framing is invalid.
    public init(_ packet: UnsafeRawBufferPointer) throws(OpusPacketError) {
        guard let base = packet.baseAddress, !packet.isEmpty else { throw .empty }
        let toc = packet[0]
        var firstFrameOffset: Int32 = 0
        var firstFrameBytes: Int32 = 0
        // libopus takes the length as a 32-bit integer: anything longer is refused, not truncated.
        let count =
            packet.count > Int(Int32.max)
            ? OPUS_INVALID_PACKET
            : mb_opus_packet_first_frame(base, Int32(packet.count), &firstFrameOffset, &firstFrameBytes)
        guard count > 0 else {
            throw .malformed(packetBytes: packet.count, frameCountCode: Int(toc & 0x3))
        }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        let configuration = Int(toc >> 3)
        mode = configuration < 12 ? .silk : configuration < 16 ? .hybrid : .celt
        bandwidth = OpusBandwidth(libraryValue: opus_packet_get_bandwidth(bytes)) ?? .fullband
        channels = Int(opus_packet_get_nb_channels(bytes))
        frameCount = Int(count)
        samplesPerFrameAt48kHz = Int(opus_packet_get_samples_per_frame(bytes, 48_000))

        let firstFrameHeader: UInt8? =
            firstFrameBytes > 0 && Int(firstFrameOffset) < packet.count ? packet[Int(firstFrameOffset)] : nil
        if mode != .celt, let header = firstFrameHeader {
            let activityFlags = max(1, samplesPerFrameAt48kHz / 960)
            let midLBRR = header >> (7 - activityFlags) & 1 == 1
            let sideLBRR = channels == 2 && header >> (6 - 2 * activityFlags) & 1 == 1
            hasFEC = midLBRR || sideLBRR
        } else {
            hasFEC = false
        }
    }
}
