import Foundation
import MediaSession
import QualityMetrics
import CaptureAnalysis
import RTP

/// What a ``RelayedCall`` did and measured.
struct CallOutcome {
    /// The settings the call ran with.
    let settings: CallSettings
    /// What the caller captured (its speech, cut to the call's length).
    let sent: [Int16]
    /// What the callee played, from its first 10 ms period on.
    let received: [Int16]
    /// The callee's first playback period minus the caller's first capture period, in nanoseconds.
    let playbackStartsAfterCaptureNanoseconds: Int64
    /// The caller's final counters.
    let caller: MediaSessionStatistics
    /// The callee's final counters.
    let callee: MediaSessionStatistics
    /// The callee's quality reports, one a second.
    let reports: [MediaQualityReport]
    /// The DTMF digits the callee received, in order.
    let dtmfReceived: String
    /// What the relay did, indexed by ``RelayDirection/rawValue``.
    let relay: [RelayCounts]
    /// The caller's side of the negotiation (codec, SRTP).
    let callerMedia: NegotiatedAudio
    /// The SRTP master keys of the two streams on the wire, by SSRC (empty for plain RTP), for
    /// decrypting the capture.
    let wireKeys: [SRTPKeyAssignment]

    init(
        settings: CallSettings, sent: [Int16], received: [Int16], playbackStartsAfterCaptureNanoseconds: Int64,
        caller: MediaSessionStatistics, callee: MediaSessionStatistics, reports: [MediaQualityReport], dtmfReceived: String,
        relay: [RelayCounts], callerMedia: NegotiatedAudio, wireKeys: [SRTPKeyAssignment]
    ) {
        self.settings = settings
        self.sent = Array(sent.prefix(Int(settings.durationSeconds * Double(settings.audioFormat.sampleRate))))
        self.received = received
        self.playbackStartsAfterCaptureNanoseconds = playbackStartsAfterCaptureNanoseconds
        self.caller = caller
        self.callee = callee
        self.reports = reports
        self.dtmfReceived = dtmfReceived
        self.relay = relay
        self.callerMedia = callerMedia
        self.wireKeys = wireKeys
        mouthToEar = Self.measureMouthToEar(
            sent: self.sent, received: received, sampleRate: settings.audioFormat.sampleRate,
            playbackOffsetNanoseconds: playbackStartsAfterCaptureNanoseconds
        )
    }

    /// The measured mouth-to-ear delay, if the audio could be aligned.
    let mouthToEar: MouthToEar?

    /// The delay from the caller's microphone to the callee's speaker, found by cross-correlating
    /// what was captured with what was played, one-second window by window (the jitter buffer
    /// changes it during the call). Each delay is the playback lag of the audio plus the 10 ms
    /// a capture period spends filling (a sample read at tick T was spoken during the 10 ms before T).
    struct MouthToEar {
        /// The median over the windows, in milliseconds.
        var medianMilliseconds: Double
        /// The smallest and largest window's, in milliseconds.
        var range: ClosedRange<Double>
        /// How many windows were aligned, and how many had enough speech to try.
        var windows: Int
        var windowsTried: Int
        /// The median normalised cross-correlation of the waveforms at the lags found.
        var correlation: Double
    }

    /// The parts a mouth-to-ear delay is made of, in milliseconds: the network's (measured by
    /// the relay), and the jitter buffer's, codec's and packetisation's (as the callee's quality
    /// monitor reports them).
    struct DelayBudget {
        /// The smallest delay the relay gave the caller's RTP: the fastest packet's, which the
        /// jitter buffer's delay counts from (the mean would count the jitter twice).
        var network: Double
        /// The jitter buffer's delay, averaged over the quality reports.
        var jitterBufferMean: Double
        /// The jitter buffer's largest delay in any quality report (it adapts during the call).
        var jitterBufferMaximum: Double
        /// The codec's algorithmic delay.
        var codec: Double
        /// The audio in one packet.
        var packetisation: Double

        /// Fastest network transit + mean jitter buffer + codec + packetisation.
        var total: Double { network + jitterBufferMean + codec + packetisation }
    }

    /// The delay's parts, for comparison with ``mouthToEar``.
    var delayBudget: DelayBudget {
        let latencies = reports.map(\.quality.latency)
        let jitterBuffer = latencies.map(\.jitterBufferMilliseconds)
        let fastestTransit = relay[RelayDirection.callerToCallee.rawValue].rtpFastestDelayMilliseconds
        return DelayBudget(
            network: fastestTransit.isFinite ? fastestTransit : 0,
            jitterBufferMean: jitterBuffer.isEmpty ? 0 : jitterBuffer.reduce(0, +) / Double(jitterBuffer.count),
            jitterBufferMaximum: jitterBuffer.max() ?? 0,
            codec: latencies.last?.codecMilliseconds ?? 0, packetisation: latencies.last?.packetisationMilliseconds ?? 0
        )
    }

    /// A window whose best match correlates less than this with what was sent was not heard as
    /// it was sent, and says nothing of the delay: a digit's tone (the sender sent telephone
    /// events in place of that speech), or speech the jitter buffer concealed or reshaped.
    static let minimumWindowCorrelation = 0.5

    private static func measureMouthToEar(sent: [Int16], received: [Int16], sampleRate: Int, playbackOffsetNanoseconds: Int64) -> MouthToEar? {
        let matches = AudioAlignment.lags(
            of: received, behind: sent, sampleRate: sampleRate, maximumLagSamples: 2 * sampleRate, windowSamples: sampleRate
        )
        let aligned = matches.filter { $0.correlation >= minimumWindowCorrelation }
        guard !aligned.isEmpty else { return nil }
        let delays = aligned.map { Double(playbackOffsetNanoseconds) / 1e6 + Double($0.lagSamples) * 1000 / Double(sampleRate) + 10 }.sorted()
        let correlations = aligned.map(\.correlation).sorted()
        return MouthToEar(
            medianMilliseconds: delays[delays.count / 2], range: delays[0]...delays[delays.count - 1], windows: delays.count,
            windowsTried: matches.count, correlation: correlations[correlations.count / 2]
        )
    }
}
