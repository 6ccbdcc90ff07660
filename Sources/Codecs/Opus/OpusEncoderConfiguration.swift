internal import COpus

/// What an Opus encoder is tuned for (`OPUS_APPLICATION_*`); fixed when the encoder is created.
public enum OpusApplication: Sendable, Hashable, CustomStringConvertible {
    /// Speech: favours intelligibility (SILK and hybrid modes, speech-tuned processing).
    case voip
    /// Music and mixed content: favours faithfulness to the input.
    case audio
    /// CELT only, for the lowest algorithmic delay; no FEC or DTX.
    case restrictedLowDelay

    /// For example "voip".
    public var description: String {
        switch self {
        case .voip: "voip"
        case .audio: "audio"
        case .restrictedLowDelay: "restricted-lowdelay"
        }
    }

    /// The libopus `OPUS_APPLICATION_*` constant.
    var libraryValue: Int32 {
        switch self {
        case .voip: OPUS_APPLICATION_VOIP
        case .audio: OPUS_APPLICATION_AUDIO
        case .restrictedLowDelay: OPUS_APPLICATION_RESTRICTED_LOWDELAY
        }
    }
}

/// The target bitrate of an Opus encoder (`OPUS_SET_BITRATE`).
public enum OpusBitrate: Sendable, Hashable, CustomStringConvertible {
    /// libopus chooses from the sample rate and channel count (`OPUS_AUTO`).
    case automatic
    /// As many bits as the packet size allows (`OPUS_BITRATE_MAX`).
    case maximum
    /// A target in bits per second, 6 000 to 510 000.
    case bitsPerSecond(Int)

    /// The bitrates libopus accepts as an explicit target.
    public static let supportedBitsPerSecond = 6000...510_000

    /// For example "24000 b/s".
    public var description: String {
        switch self {
        case .automatic: "automatic"
        case .maximum: "maximum"
        case let .bitsPerSecond(value): "\(value) b/s"
        }
    }

    /// The value for `OPUS_SET_BITRATE`.
    var libraryValue: Int32 {
        switch self {
        case .automatic: OPUS_AUTO
        case .maximum: OPUS_BITRATE_MAX
        case let .bitsPerSecond(value): Int32(clamping: value)
        }
    }
}

/// How an Opus encoder spends bits from packet to packet (`OPUS_SET_VBR`, `OPUS_SET_VBR_CONSTRAINT`).
public enum OpusBitrateMode: Sendable, Hashable {
    /// Packet sizes follow the signal's needs.
    case variable
    /// Variable, but bounded so the rate over a short window stays near the target (libopus' default).
    case constrainedVariable
    /// Every packet of a given duration has the same size.
    case constant
}

/// The settings of an ``OpusEncoder``. Every default is chosen for a VoIP call and documented on
/// its property; all of them are sent to libopus when the encoder is created, so nothing depends
/// on libopus' own defaults.
public struct OpusEncoderConfiguration: Sendable, Hashable {
    /// The PCM the encoder takes: 8, 12, 16, 24 or 48 kHz, mono or stereo. Default 48 kHz mono.
    public var format: AudioFormat
    /// The audio in one packet. Default 20 ms.
    public var frameDuration: OpusFrameDuration
    /// What the encoder is tuned for. Default ``OpusApplication/voip``.
    public var application: OpusApplication
    /// The target bitrate. Default ``OpusBitrate/automatic``.
    public var bitrate: OpusBitrate
    /// Encoder effort, 0 (cheapest) to 10 (best). Default 9: with libopus 1.3.1 it sounds as
    /// good as 10 at the same cost, clearly better than 5 (PESQ-WB 4.30 against 4.08 on
    /// espeak-ng speech at 48 kHz, 4.01 against 3.70 at 2 % loss with FEC) for about 260 µs per
    /// 20 ms frame against 145 µs (measured on a loaded two-core VM): about 1 % of a core, which
    /// any desktop or phone running a call can spare.
    public var complexity: Int
    /// The widest bandwidth the encoder may use (`OPUS_SET_MAX_BANDWIDTH`). Default fullband.
    public var maxBandwidth: OpusBandwidth
    /// Variable, constrained-variable or constant bitrate. Default constrained variable.
    public var bitrateMode: OpusBitrateMode
    /// Whether packets carry in-band forward error correction (LBRR) for the previous frame
    /// (`OPUS_SET_INBAND_FEC`). Default off. It only takes effect in SILK and hybrid modes and
    /// with ``expectedPacketLossPercent`` above 0.
    public var inbandFEC: Bool
    /// The packet loss the encoder expects, 0 to 100 (`OPUS_SET_PACKET_LOSS_PERC`); sizes the FEC.
    /// Default 0.
    public var expectedPacketLossPercent: Int
    /// Whether silence is sent as 1–2 byte packets, most of which need not be transmitted
    /// (`OPUS_SET_DTX`). Default off.
    public var discontinuousTransmission: Bool

    /// A configuration with the defaults above, overridden by whatever is passed.
    public init(
        format: AudioFormat = AudioFormat(sampleRate: 48_000, channels: 1),
        frameDuration: OpusFrameDuration = .milliseconds20,
        application: OpusApplication = .voip,
        bitrate: OpusBitrate = .automatic,
        complexity: Int = 9,
        maxBandwidth: OpusBandwidth = .fullband,
        bitrateMode: OpusBitrateMode = .constrainedVariable,
        inbandFEC: Bool = false,
        expectedPacketLossPercent: Int = 0,
        discontinuousTransmission: Bool = false
    ) {
        self.format = format
        self.frameDuration = frameDuration
        self.application = application
        self.bitrate = bitrate
        self.complexity = complexity
        self.maxBandwidth = maxBandwidth
        self.bitrateMode = bitrateMode
        self.inbandFEC = inbandFEC
        self.expectedPacketLossPercent = expectedPacketLossPercent
        self.discontinuousTransmission = discontinuousTransmission
    }

    /// Throws ``CodecError/unsupportedParameter(_:)`` naming the first setting libopus would reject.
    public func validate() throws(CodecError) {
        try OpusLibrary.validate(format)
        if case let .bitsPerSecond(value) = bitrate, !OpusBitrate.supportedBitsPerSecond.contains(value) {
            throw .unsupportedParameter("Opus bitrate \(value) b/s (expected 6000 to 510000)")
        }
        guard (0...10).contains(complexity) else {
            throw .unsupportedParameter("Opus complexity \(complexity) (expected 0 to 10)")
        }
        guard (0...100).contains(expectedPacketLossPercent) else {
            throw .unsupportedParameter("Opus expected packet loss \(expectedPacketLossPercent) % (expected 0 to 100)")
        }
    }
}
