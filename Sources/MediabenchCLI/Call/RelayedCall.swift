import Codecs
import Foundation
import MediaSession
import QualityMetrics
import CaptureAnalysis
import RTP
import Synchronization

/// A call between two ``MediaSession``s on loopback through an ``ImpairmentRelay``: the caller
/// talks (``CallSettings/speech`` or the built-in signal), the callee talks back (the built-in
/// signal with another seed), both record what they hear.
///
/// The sessions negotiate through SDP text as a SIP layer would carry it, with the relay in
/// the middle like a media relay rewriting `c=`/`m=`: each side is offered the relay's socket
/// facing it, and the SDES keys travel in the `a=crypto` lines. Echo cancellation and
/// denoising are off, so the measured audio is what the network and the codec made of it; the
/// RTCP interval is 1 s so that even short calls measure their round trip.
struct RelayedCall {
    /// How long the callee goes on after the caller hangs up, for the packets still in flight.
    static let drainSeconds = 0.25

    let settings: CallSettings

    /// Runs the call for ``CallSettings/durationSeconds``, handing each of the callee's quality
    /// reports to `onQualityReport` as it comes (once a second), and returns what happened.
    func run(onQualityReport: @escaping @Sendable (MediaQualityReport) -> Void) throws -> CallOutcome {
        let format = settings.audioFormat
        let duration = settings.durationSeconds
        let source = settings.speech ?? SpeechLikeSignal.samples(sampleRate: format.sampleRate, seconds: duration)
        let capacity = Int(Double(format.sampleRate) * (duration + 2))
        let callerAudio = TimedAudioEndpoint(source: source, format: format, recordingCapacitySamples: capacity)
        let calleeAudio = TimedAudioEndpoint(
            source: SpeechLikeSignal.samples(sampleRate: format.sampleRate, seconds: duration, seed: 2), format: format,
            recordingCapacitySamples: capacity
        )
        let caller = try MediaSession(configuration: configuration(audio: callerAudio))
        let callee = try MediaSession(configuration: configuration(audio: calleeAudio))
        let capture = try settings.capturePath.map { path throws(CommandFailure) in
            do { return try WireCapture(path: path) } catch { throw CommandFailure("\(path): \(error)") }
        }
        let relay = try ImpairmentRelay(
            caller: caller.localAddress, callee: callee.localAddress,
            impairment: RelayImpairment(scenario: settings.scenario, seed: settings.seed, seconds: duration + 10),
            rtpClockRate: settings.sdpCodec.map.clockRate, capture: capture
        )
        let talk: (callerMedia: NegotiatedAudio, reports: [MediaQualityReport], digits: String)
        do {
            talk = try converse(caller: caller, callee: callee, through: relay, capture: capture, onQualityReport: onQualityReport)
        } catch {
            caller.stop()
            callee.stop()
            _ = try? relay.stop()
            throw error
        }
        let relayCounts = try relay.stop()
        return CallOutcome(
            settings: settings, sent: source, received: calleeAudio.recorded,
            playbackStartsAfterCaptureNanoseconds: calleeAudio.firstWriteNanoseconds - callerAudio.firstReadNanoseconds,
            caller: caller.statistics, callee: callee.statistics, reports: talk.reports, dtmfReceived: talk.digits,
            relay: relayCounts, callerMedia: talk.callerMedia,
            wireKeys: Self.wireKeys(talk.callerMedia, callerSSRC: caller.configuration.ssrc, calleeSSRC: callee.configuration.ssrc)
        )
    }

    /// Negotiates, runs the call for its duration with the DTMF digits one second in, hangs up,
    /// and returns the caller's negotiated media, the callee's quality reports and its digits.
    private func converse(
        caller: MediaSession, callee: MediaSession, through relay: ImpairmentRelay, capture: WireCapture?,
        onQualityReport: @escaping @Sendable (MediaQualityReport) -> Void
    ) throws -> (callerMedia: NegotiatedAudio, reports: [MediaQualityReport], digits: String) {
        let duration = settings.durationSeconds
        let (callerMedia, calleeMedia, offer, answer) = try negotiate(caller: caller, callee: callee, through: relay)
        capture?.recordSignalling(offer: offer, answer: answer, atNanoseconds: Int64(Date().timeIntervalSince1970 * 1e9))

        let reports = Mutex<[MediaQualityReport]>([])
        let digits = Mutex("")
        let streamsDone = DispatchGroup()
        streamsDone.enter()
        Task {
            for await report in callee.qualityReports {
                reports.withLock { $0.append(report) }
                onQualityReport(report)
            }
            streamsDone.leave()
        }
        streamsDone.enter()
        Task {
            for await event in callee.events {
                if case let .dtmfReceived(digit) = event { digits.withLock { $0.append(digit) } }
            }
            streamsDone.leave()
        }
        let start = ContinuousClock.now
        try callee.start(negotiated: calleeMedia)
        try caller.start(negotiated: callerMedia)
        if !settings.dtmf.isEmpty {
            Thread.sleep(until: start.advanced(by: .seconds(min(1, duration / 4))))
            try caller.sendDTMF(settings.dtmf)
        }
        Thread.sleep(until: start.advanced(by: .seconds(duration)))
        caller.stop()
        // The caller's last packets are still crossing the network: let them arrive and play.
        Thread.sleep(forTimeInterval: Self.drainSeconds)
        callee.stop()
        streamsDone.wait()
        return (callerMedia, reports.withLock { $0 }, digits.withLock { $0 })
    }

    /// Each stream's SRTP key: the caller protects with its own `a=crypto` key, the callee with its.
    private static func wireKeys(_ media: NegotiatedAudio, callerSSRC: UInt32, calleeSSRC: UInt32) -> [SRTPKeyAssignment] {
        guard let crypto = media.crypto else { return [] }
        return [
            SRTPKeyAssignment(ssrc: callerSSRC, key: crypto.local.masterKey),
            SRTPKeyAssignment(ssrc: calleeSSRC, key: crypto.remote.masterKey),
        ]
    }

    private func configuration(audio: TimedAudioEndpoint) -> MediaSessionConfiguration {
        MediaSessionConfiguration(
            localAddress: .loopbackIPv4(), codecs: [settings.sdpCodec], srtpSuites: settings.srtp.map { [$0] } ?? [], jitterBuffer: settings.jitterBuffer,
            echoCancellation: false,
            noiseSuppression: false, audio: .endpoint(audio), rtcpMinimumIntervalSeconds: 1
        )
    }

    /// Offer and answer through SDP text, each side seeing the relay's socket facing it as its
    /// peer; returns both sides' outcomes and the two SDP texts.
    private func negotiate(
        caller: MediaSession, callee: MediaSession, through relay: ImpairmentRelay
    ) throws -> (caller: NegotiatedAudio, callee: NegotiatedAudio, offer: String, answer: String) {
        var offered = caller.localCapabilities
        offered.address = relay.calleeFacingAddress.host
        offered.rtpPort = Int(relay.calleeFacingAddress.port)
        let offerText = MediaNegotiation.offer(offered).text
        let offer = try SessionDescription(parsing: offerText)
        var answering = callee.localCapabilities
        answering.address = relay.callerFacingAddress.host
        answering.rtpPort = Int(relay.callerFacingAddress.port)
        let (answer, calleeMedia) = try MediaNegotiation.answer(to: offer, with: answering)
        let callerMedia = try MediaNegotiation.apply(
            answer: SessionDescription(parsing: answer.text), toOfferFrom: caller.localCapabilities
        )
        return (callerMedia, calleeMedia, offerText, answer.text)
    }
}
