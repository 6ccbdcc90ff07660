import RTP
import AudioDevice
import Jitter

/// What a ``MediaSession`` does when muted.
public enum MuteBehaviour: Sendable, Equatable {
    /// Sends no RTP at all while muted (RTCP goes on).
    case sendNothing
    /// Sends one RFC 3389 comfort-noise packet (payload type 13) at silence level when the
    /// mute starts, then nothing (RTCP goes on). Only for codecs with an 8 kHz RTP clock, which
    /// static payload type 13 assumes; other codecs fall back to ``sendNothing``.
    case comfortNoise
}

/// Where a session's audio comes from and goes to.
public enum MediaAudioIO: Sendable {
    /// ALSA devices (by name, `.named("default")`, `.named("pulse")`, …, or an in-memory ALSA
    /// configuration such as `.file(recordingPath:sourcePath:)`), opened on the session's audio
    /// thread at the codec's sample rate.
    case devices(capture: AudioDeviceSource, playback: AudioDeviceSource)
    /// An endpoint of the caller's, such as ``MemoryAudioEndpoint``, used by the audio thread only.
    case endpoint(any AudioEndpoint & Sendable)
}

/// Everything a ``MediaSession`` needs before a call is negotiated. Every property has a
/// documented default; change what you need.
public struct MediaSessionConfiguration: Sendable {
    /// The address the RTP socket binds to and offers in SDP (RTCP binds the next port).
    /// Default: the host's address on its default route with a system-chosen port
    /// (``SocketAddress/defaultLocal(port:)``); pass `.loopbackIPv4()` for calls on this host only.
    public var localAddress: SocketAddress
    /// Codecs in order of preference for offers and answers. Default Opus, PCMU, PCMA.
    public var codecs: [SDPCodec]
    /// The packet duration to offer and, unless the peer asks otherwise, to send. Default 20 ms.
    public var packetTimeMilliseconds: Int
    /// The payload type offered for RFC 4733 telephone events, or nil for none. Default 101.
    public var telephoneEventPayloadType: Int?
    /// The SRTP suites to offer or accept, most preferred first; empty for plain RTP. Default empty.
    public var srtpSuites: [SRTPCryptoSuite]
    /// Whether SRTP is required when ``srtpSuites`` is not empty (the default): offers are
    /// `RTP/SAVP` and a peer without a common suite is refused. When false, SRTP is best
    /// effort (the usual SDES convention): offers are `RTP/AVP` with `a=crypto` lines, and SRTP
    /// is used when the answer carries `a=crypto`, plain RTP when it does not; as answerer, an
    /// offer with `a=crypto` (`RTP/AVP` or `RTP/SAVP`) gets SRTP and a plain one plain RTP.
    public var srtpRequired: Bool
    /// Socket options: DSCP (default 46, EF), kernel receive timestamps (default on), receive buffer.
    public var socketOptions: UDPSocketOptions
    /// Whether to offer and accept RTP and RTCP on the RTP port (RFC 5761). Default true. The
    /// session binds RTP's port + 1 either way, for a peer that declines it.
    public var rtcpMux: Bool
    /// Whether to send to the source of the first authenticated packet rather than the SDP
    /// address (symmetric RTP, for peers behind NAT). Default true.
    public var symmetricRTP: Bool
    /// The jitter buffer's settings. Default: the jitter buffer's own defaults.
    public var jitterBuffer: JitterBufferConfiguration
    /// Whether captured audio goes through the echo canceller (speexdsp, playback as reference).
    /// Default true; applied only when capture and playback are mono at the same rate.
    public var echoCancellation: Bool
    /// The echo canceller's tail, in milliseconds. Default 200.
    public var echoTailMilliseconds: Int
    /// Whether captured audio is denoised (speexdsp preprocessor). Default true.
    public var noiseSuppression: Bool
    /// Where the audio comes from and goes to. Default: ALSA `default` both ways.
    public var audio: MediaAudioIO
    /// What mute sends. Default ``MuteBehaviour/sendNothing``.
    public var muteBehaviour: MuteBehaviour
    /// Seconds without a received RTP packet (while the peer should be sending) before the
    /// ``MediaSessionEvent/noMedia(seconds:)`` event. Default 10.
    public var noMediaTimeoutSeconds: Double
    /// The RTCP minimum interval of RFC 3550 §6.2, in seconds. Default 5.
    public var rtcpMinimumIntervalSeconds: Double
    /// The SDES CNAME. Default a random `media-…@engine` name, unique per configuration.
    public var cname: String
    /// The SSRC we send with. Default random.
    public var ssrc: UInt32
    /// How the encoder's in-band FEC follows the loss the peer reports (Opus with
    /// `useinbandfec=1`); nil keeps the expected loss fixed at the SDP default
    /// (`OpusEncoderConfiguration.defaultExpectedLossWithFEC`). Default ``LossAdaptation``'s
    /// defaults: the reported loss smoothed over 5 s (from 1 % before the first report), plus
    /// 1 point, none under half a percent, at most 25 %.
    public var lossAdaptation: LossAdaptation?
    /// The clock the call is timed on and, for a session with its own threads, paced by:
    /// arrivals, the jitter buffer, RTCP, the watchdog, the quality reports, the audio ticks and
    /// the I/O thread's polling. A leg on a
    /// ``MediaRuntime`` uses the runtime's ``MediaRuntimeConfiguration/clock`` instead.
    /// Default ``SystemMonotonicClock`` (CLOCK_MONOTONIC).
    public var clock: any MonotonicClock
    /// The wall clock the kernel stamps arrivals on; read once to place the call's monotonic
    /// time on it (RTCP's NTP fields), and then every second to map the stamps across its steps
    /// (``WallClockMapping``). Default ``SystemWallClock`` (CLOCK_REALTIME).
    public var wallClock: any WallClock

    /// A configuration with the documented defaults, overridden by whatever is passed.
    public init(
        localAddress: SocketAddress = .defaultLocal(),
        codecs: [SDPCodec] = [.opus, .pcmu, .pcma],
        packetTimeMilliseconds: Int = 20,
        telephoneEventPayloadType: Int? = 101,
        srtpSuites: [SRTPCryptoSuite] = [],
        srtpRequired: Bool = true,
        socketOptions: UDPSocketOptions = UDPSocketOptions(),
        rtcpMux: Bool = true,
        symmetricRTP: Bool = true,
        jitterBuffer: JitterBufferConfiguration = JitterBufferConfiguration(),
        echoCancellation: Bool = true,
        echoTailMilliseconds: Int = 200,
        noiseSuppression: Bool = true,
        audio: MediaAudioIO = .devices(capture: .named("default"), playback: .named("default")),
        muteBehaviour: MuteBehaviour = .sendNothing,
        noMediaTimeoutSeconds: Double = 10,
        rtcpMinimumIntervalSeconds: Double = RTCPTransmissionInterval.defaultMinimumInterval,
        cname: String? = nil,
        ssrc: UInt32? = nil,
        lossAdaptation: LossAdaptation? = LossAdaptation(),
        clock: any MonotonicClock = SystemMonotonicClock(),
        wallClock: any WallClock = SystemWallClock()
    ) {
        self.localAddress = localAddress
        self.codecs = codecs
        self.packetTimeMilliseconds = packetTimeMilliseconds
        self.telephoneEventPayloadType = telephoneEventPayloadType
        self.srtpSuites = srtpSuites
        self.srtpRequired = srtpRequired
        self.socketOptions = socketOptions
        self.rtcpMux = rtcpMux
        self.symmetricRTP = symmetricRTP
        self.jitterBuffer = jitterBuffer
        self.echoCancellation = echoCancellation
        self.echoTailMilliseconds = echoTailMilliseconds
        self.noiseSuppression = noiseSuppression
        self.audio = audio
        self.muteBehaviour = muteBehaviour
        self.noMediaTimeoutSeconds = noMediaTimeoutSeconds
        self.rtcpMinimumIntervalSeconds = rtcpMinimumIntervalSeconds
        self.cname = cname ?? "media-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))@engine"
        self.ssrc = ssrc ?? UInt32.random(in: 1...UInt32.max)
        self.lossAdaptation = lossAdaptation
        self.clock = clock
        self.wallClock = wallClock
    }
}
