import QualityMetrics
import PlayoutLab
import RTP

/// Turns a finished ``StreamAnalysis`` and what RTCP said about its SSRC into a
/// ``StreamReport``, rating the whole stream and each timeline interval with the E-model from
/// what was heard (see ``QualityEstimate``).
struct StreamReportBuilder {
    var stream: StreamAnalysis
    let rtcp: RTCPSourceReport?
    let roundTrip: StreamRoundTrip
    /// The given one-way network delay, used when the path round trip is unknown.
    let oneWayDelayMilliseconds: Double?
    let estimator: QualityEstimator
    let srtpSuite: String?
    let srtp: SRTPReport?
    let callID: String?

    mutating func build() -> StreamReport {
        let reception = stream.reception
        let expected = Int(reception.expected)
        let distinct = Int(reception.received - reception.duplicates)
        let lost = max(expected - distinct, 0)
        let lossPercent = expected == 0 ? 0 : Double(lost) * 100 / Double(expected)
        let clockRate = stream.clockRate
        let jitter = clockRate == nil ? nil : reception.jitterMilliseconds
        let pathRoundTrip = roundTrip.pathMilliseconds
        let burstRatio = stream.lossTransitions.burstRatio
        let codec = stream.mediaFormat?.encodingName
        let packetMilliseconds = packetDurationMilliseconds(clockRate: clockRate)
        let bitrate =
            stream.mediaPackets == 0
            ? nil : Double(stream.mediaPayloadBytes) * 8 / (Double(stream.mediaPackets) * packetMilliseconds / 1000)
        let impairment = estimator.impairment(encodingName: codec, bitsPerSecond: bitrate)
        let oneWay = pathRoundTrip.map { $0 / 2 } ?? oneWayDelayMilliseconds ?? 0
        let codecDelay = QualityEstimator.codecDelayMilliseconds(encodingName: codec)
        let (jitterBuffer, wav, audioReason) = listenerFigures()
        let network = RatingInputs(
            lossPercent: lossPercent, burstRatio: burstRatio, networkOneWayMilliseconds: oneWay,
            playoutDelayMilliseconds: 2 * (jitter ?? 0), packetisationMilliseconds: packetMilliseconds,
            codecDelayMilliseconds: codecDelay)
        var heard = network
        if let jitterBuffer {
            heard.lossPercent = jitterBuffer.effectiveLossPercent
            heard.playoutDelayMilliseconds = jitterBuffer.meanDelayMilliseconds
        }
        let networkQuality = estimator.estimate(codec: impairment, network)
        let quality = estimator.estimate(codec: impairment, heard)
        // An interval's rating differs from the stream's in its loss alone, and intervals
        // share few loss figures: each is rated once.
        var scoresByLoss: [Double: Double?] = [:]
        let timeline = stream.timeline.buckets.map { bucket in
            var rated = bucket
            let loss = bucket.lossPercent
            if let known = scoresByLoss[loss] {
                rated.meanOpinionScore = known
                return rated
            }
            var inputs = heard
            inputs.lossPercent = loss
            inputs.burstRatio = nil
            rated.meanOpinionScore = estimator.estimate(codec: impairment, inputs)?.meanOpinionScore
            scoresByLoss[loss] = .some(rated.meanOpinionScore)
            return rated
        }
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
            key: stream.key, callID: callID, foundBy: stream.foundBy, codec: codec, encodingNames: stream.encodingNames,
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
            rtcp: rtcp, srtp: srtp, roundTripMilliseconds: pathRoundTrip,
            roundTripMinimumMilliseconds: roundTrip.pathMinimumMilliseconds,
            capturePointRoundTripMilliseconds: roundTrip.capturePointMilliseconds,
            reverseCapturePointRoundTripMilliseconds: roundTrip.reverseCapturePointMilliseconds,
            mediaBitsPerSecond: bitrate, audioDecoded: audioReason == nil, audioReason: audioReason,
            farEndJitterMilliseconds: zip(rtcp?.lastJitterUnits, clockRate).map { Double($0) * 1000 / Double($1) },
            dtmfEvents: presses, quality: quality, networkQuality: networkQuality, jitterBuffer: jitterBuffer,
            listenerWAV: wav, timeline: timeline)
    }

    /// The replay's figures, WAV outcome, and why the audio could not be rebuilt (`nil` when
    /// it was). Without a replay, why not; an encrypted stream none of whose packets decrypted
    /// gets no replay, no WAV and no playout figures.
    private func listenerFigures() -> (JitterBufferReport?, ListenerWAVReport?, String?) {
        if let listener = stream.listener {
            let (report, wav) = listener.finish()
            let reason = report.audioDecoded ? nil : "\(stream.mediaFormat?.encodingName ?? "the codec") cannot be decoded here"
            return (report, wav, reason)
        }
        let reason: String
        if let srtp, srtp.decrypted == 0 {
            reason =
                "no SRTP packet decrypted with the \(srtp.keySource == .given ? "given" : "SDP") "
                + "\(srtp.suite) key: \(srtp.authenticationFailures) failed authentication, "
                + "\(srtp.replays) replays, \(srtp.otherFailures) other failures"
        } else if stream.listening == nil {
            reason = "jitter-buffer replay turned off"
        } else {
            reason = StreamListener.noReplayReason(format: stream.mediaFormat, clockRate: stream.clockRate)
        }
        guard let listening = stream.listening, listening.wavDirectory != nil else { return (nil, nil, reason) }
        return (nil, ListenerWAVReport(path: nil, skippedReason: reason), reason)
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
