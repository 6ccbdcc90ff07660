/// What G.711 encoders and decoders share: 8 kHz mono, one byte per sample, RTP clock 8000.
enum G711Format {
    /// 8 kHz mono.
    static let audio = AudioFormat(sampleRate: 8000, channels: 1)
    /// The RTP clock rate of PCMU and PCMA.
    static let rtpClockRate = 8000
    /// The frame durations the encoder accepts, in milliseconds.
    static let frameDurations = [10, 20, 30, 40, 50, 60]
}
