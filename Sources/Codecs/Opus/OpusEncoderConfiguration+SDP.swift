extension OpusEncoderConfiguration {
    /// The expected loss assumed when the far end asks for in-band FEC (`useinbandfec=1`) and the
    /// caller gives none: libopus adds no FEC while its expected loss is 0.
    public static let defaultExpectedLossWithFEC = 10

    /// The settings for sending to a receiver that announced `parameters` (RFC 7587 §7.1) with
    /// packets of `packetTimeMilliseconds`, from PCM at `sampleRate` hertz:
    /// - `maxplaybackrate` caps the bandwidth (8 kHz → narrowband, 12 kHz → mediumband,
    ///   16 kHz → wideband, 24 kHz → super-wideband, above → fullband);
    /// - `maxaveragebitrate` sets the bitrate (libopus' choice when absent);
    /// - `stereo=1` makes the encoder stereo, otherwise mono;
    /// - `cbr=1` selects constant bitrate, otherwise libopus' constrained variable bitrate;
    /// - `useinbandfec=1` turns FEC on, sized for `expectedPacketLossPercent`;
    /// - `usedtx=1` turns DTX on.
    ///
    /// Throws ``CodecError/unsupportedParameter(_:)`` for a packet time this encoder cannot frame
    /// (it sends one frame per packet: 5, 10, 20, 40 or 60 ms) or a rate libopus cannot take.
    public init(
        receiverParameters parameters: OpusParameters,
        packetTimeMilliseconds: Int,
        sampleRate: Int = 48_000,
        expectedPacketLossPercent: Int = OpusEncoderConfiguration.defaultExpectedLossWithFEC
    ) throws(CodecError) {
        guard let frameDuration = OpusFrameDuration(milliseconds: packetTimeMilliseconds) else {
            throw .unsupportedParameter(
                "Opus packet time \(packetTimeMilliseconds) ms (one frame per packet: 5, 10, 20, 40 or 60 ms)"
            )
        }
        self.init(
            format: AudioFormat(sampleRate: sampleRate, channels: parameters.stereo ? 2 : 1),
            frameDuration: frameDuration,
            bitrate: parameters.maximumAverageBitrate.map(OpusBitrate.bitsPerSecond) ?? .automatic,
            maxBandwidth: OpusBandwidth(playbackRate: parameters.maximumPlaybackRate),
            bitrateMode: parameters.constantBitrate ? .constant : .constrainedVariable,
            inbandFEC: parameters.inBandFEC,
            expectedPacketLossPercent: parameters.inBandFEC ? expectedPacketLossPercent : 0,
            discontinuousTransmission: parameters.discontinuousTransmission
        )
        try validate()
    }
}

extension OpusBandwidth {
    /// The widest bandwidth a receiver playing at most `playbackRate` hertz can use
    /// (RFC 7587 §3.1.1): half the rate, rounded down to an Opus bandwidth.
    public init(playbackRate: Int) {
        switch playbackRate {
        case ..<12_000: self = .narrowband
        case ..<16_000: self = .mediumband
        case ..<24_000: self = .wideband
        case ..<48_000: self = .superWideband
        default: self = .fullband
        }
    }
}
