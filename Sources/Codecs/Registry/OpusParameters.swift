/// The RFC 7587 `fmtp` parameters of `opus/48000/2`, with their defaults.
///
/// They describe what the side that sent the SDP wants to *receive* (`maxplaybackrate`,
/// `stereo`, `useinbandfec`, …) or will *send* (the `sprop-` ones). Unknown parameters (such as
/// WebRTC's `minptime`) are ignored, as SDP requires.
public struct OpusParameters: Sendable, Hashable {
    /// The sample rates Opus parameters may name.
    public static let sampleRates = 8000...48000
    /// The bitrates `maxaveragebitrate` may name, in bits per second.
    public static let bitrates = 6000...510_000

    /// `maxplaybackrate`: the highest sample rate the receiver will play, in Hz (default 48 000).
    public var maximumPlaybackRate = 48_000
    /// `sprop-maxcapturerate`: the highest sample rate the sender captures, in Hz (default 48 000).
    public var maximumCaptureRate = 48_000
    /// `maxaveragebitrate`: the highest average bitrate the receiver wants, in bits per second.
    public var maximumAverageBitrate: Int?
    /// `stereo`: whether the receiver prefers stereo (default false).
    public var stereo = false
    /// `sprop-stereo`: whether the sender is likely to send stereo (default false).
    public var senderStereo = false
    /// `cbr`: whether the receiver wants constant bitrate (default false).
    public var constantBitrate = false
    /// `useinbandfec`: whether the receiver can use in-band FEC, so the sender should add it.
    public var inBandFEC = false
    /// `usedtx`: whether the receiver wants discontinuous transmission in silence.
    public var discontinuousTransmission = false

    /// The defaults of RFC 7587 (every parameter absent).
    public init() {}

    /// Reads the RFC 7587 parameters of an `fmtp` value such as
    /// `"maxplaybackrate=16000; useinbandfec=1"`.
    public init(fmtp: String) throws(CodecRegistryError) {
        let parameters = try FormatParameters(fmtp)
        maximumPlaybackRate = try parameters.integer("maxplaybackrate", in: Self.sampleRates) ?? maximumPlaybackRate
        maximumCaptureRate = try parameters.integer("sprop-maxcapturerate", in: Self.sampleRates) ?? maximumCaptureRate
        maximumAverageBitrate = try parameters.integer("maxaveragebitrate", in: Self.bitrates)
        stereo = try parameters.flag("stereo") ?? stereo
        senderStereo = try parameters.flag("sprop-stereo") ?? senderStereo
        constantBitrate = try parameters.flag("cbr") ?? constantBitrate
        inBandFEC = try parameters.flag("useinbandfec") ?? inBandFEC
        discontinuousTransmission = try parameters.flag("usedtx") ?? discontinuousTransmission
    }

    /// The `fmtp` value that says these parameters: only those that differ from the defaults,
    /// in a fixed order (empty when all are defaults).
    public var fmtp: String {
        var entries: [String] = []
        if maximumPlaybackRate != 48_000 { entries.append("maxplaybackrate=\(maximumPlaybackRate)") }
        if maximumCaptureRate != 48_000 { entries.append("sprop-maxcapturerate=\(maximumCaptureRate)") }
        if let maximumAverageBitrate { entries.append("maxaveragebitrate=\(maximumAverageBitrate)") }
        if stereo { entries.append("stereo=1") }
        if senderStereo { entries.append("sprop-stereo=1") }
        if constantBitrate { entries.append("cbr=1") }
        if inBandFEC { entries.append("useinbandfec=1") }
        if discontinuousTransmission { entries.append("usedtx=1") }
        return entries.joined(separator: ";")
    }
}
