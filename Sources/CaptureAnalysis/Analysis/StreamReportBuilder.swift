import QualityMetrics
import PlayoutLab
import RTP

/// Turns a finished ``StreamAnalysis`` and what RTCP said about its SSRC into a
/// ``StreamReport``, rating the whole stream and each timeline interval with the E-model.
struct StreamReportBuilder {
    var stream: StreamAnalysis
    let rtcp: RTCPSourceReport?
    let estimator: QualityEstimator
    let srtpSuite: String?
    let srtp: SRTPReport?

    mutating func build() -> StreamReport {
        let reception = stream.reception
        let expected = Int(reception.expected)
        let distinct = Int(reception.received - reception.duplicates)
        let lost = max(expected - distinct, 0)
        let lossPercent = expected == 0 ? 0 : Double(lost) * 100 / Double(expected)
        let clockRate = stream.clockRate
        let jitter = clockRate == nil ? nil : reception.jitterMilliseconds
        let roundTrip = rtcp.flatMap { $0.roundTripMilliseconds.count == 0 ? nil : $0.roundTripMilliseconds.mean }
        let burstRatio = stream.lossTransitions.burstRatio
        let codec = stream.mediaFormat?.encodingName
        let packetMilliseconds = packetDurationMilliseconds(clockRate: clockRate)
        let quality = estimator.estimate(
            encodingName: codec, lossPercent: lossPercent, burstRatio: burstRatio,
            roundTripMilliseconds: roundTrip, jitterMilliseconds: jitter)
        let timeline = stream.timeline.buckets.map { bucket in
            var rated = bucket
            rated.meanOpinionScore = estimator.estimate(
                encodingName: codec, lossPercent: bucket.lossPercent, burstRatio: nil,
                roundTripMilliseconds: roundTrip, jitterMilliseconds: bucket.maximumJitterMilliseconds)?.meanOpinionScore
            return rated
        }
        let (jitterBuffer, wav) = listenerFigures()
        let firstArrival = stream.firstArrivalNanoseconds
        let presses = stream.finishKeyPresses().map { entry in
            DTMFEventReport(
                key: DTMFEventCode.character(for: entry.press.event).map(String.init) ?? String(entry.press.event),
                startSeconds: Double(entry.arrivalNanoseconds &- firstArrival) / 1e9,
                durationMilliseconds: Double(entry.press.duration) * 1000 / Double(clockRate ?? 8000),
                volumeDBm0: -Int(entry.press.volume),
                endReceived: entry.press.endReceived)
        }
        return StreamReport(
            key: stream.key, foundBy: stream.foundBy, codec: codec, encodingNames: stream.encodingNames,
            payloadTypes: stream.payloadTypes, clockRateHertz: clockRate, srtpSuite: srtpSuite,
            firstFrame: stream.firstFrame, startSeconds: Double(firstArrival) / 1e9,
            durationSeconds: Double(stream.lastArrivalNanoseconds &- firstArrival) / 1e9,
            packets: stream.packets, expected: expected, lost: lost, lossPercent: lossPercent,
            duplicates: Int(reception.duplicates), outOfOrder: Int(reception.reordered),
            jitterMilliseconds: jitter, wireshark: WiresharkFigures(stream.wireshark),
            burstGap: BurstGapReport(
                minimumGap: stream.burstGap.minimumGap, lossRate: stream.burstGap.lossFraction,
                discardRate: jitterBuffer.map { $0.lateLossPercent / 100 } ?? stream.burstGap.discardFraction,
                metrics: stream.burstGap.metrics(packetDurationMilliseconds: packetMilliseconds),
                burstRatio: burstRatio),
            rtcp: rtcp, srtp: srtp, roundTripMilliseconds: roundTrip,
            farEndJitterMilliseconds: zip(rtcp?.lastJitterUnits, clockRate).map { Double($0) * 1000 / Double($1) },
            dtmfEvents: presses, quality: quality, jitterBuffer: jitterBuffer, listenerWAV: wav, timeline: timeline)
    }

    /// The replay's figures and WAV outcome; without a replay, why no WAV was written when one
    /// was asked for.
    private func listenerFigures() -> (JitterBufferReport?, ListenerWAVReport?) {
        if let listener = stream.listener {
            let (report, wav) = listener.finish()
            return (report, wav)
        }
        guard let listening = stream.listening, listening.wavDirectory != nil else { return (nil, nil) }
        let reason = StreamListener.noReplayReason(format: stream.mediaFormat, clockRate: stream.clockRate)
        return (nil, ListenerWAVReport(path: nil, skippedReason: reason))
    }

    /// The audio in one packet: the stream's duration over its packets (20 ms when unknown).
    private func packetDurationMilliseconds(clockRate: UInt32?) -> Double {
        guard stream.packets > 1 else { return 20 }
        let span = Double(stream.lastArrivalNanoseconds &- stream.firstArrivalNanoseconds) / 1e6
        let interval = span / Double(stream.packets - 1)
        return interval > 0 ? interval : 20
    }
}

/// Both values, or `nil`.
private func zip<A, B>(_ first: A?, _ second: B?) -> (A, B)? {
    guard let first, let second else { return nil }
    return (first, second)
}
