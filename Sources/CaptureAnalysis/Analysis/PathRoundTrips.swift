import QualityMetrics
import PlayoutLab

/// The round trip of one stream's path and the capture-point figures it is made of.
struct StreamRoundTrip {
    /// This SSRC's round trip as seen at the capture point (its SR to the far end's block
    /// echoing it), the mean in milliseconds.
    var capturePointMilliseconds: Double?
    /// The same for the SSRC of the call's other direction.
    var reverseCapturePointMilliseconds: Double?
    /// The smallest of this SSRC's capture-point round trips.
    var capturePointMinimumMilliseconds: Double?
    /// The smallest of the reverse direction's.
    var reverseCapturePointMinimumMilliseconds: Double?

    /// The endpoint-to-endpoint round trip: the two capture-point round trips add up to it
    /// wherever the capture was taken (at one endpoint, one of them is that endpoint's own
    /// turnaround, near 0); `nil` unless both are known.
    var pathMilliseconds: Double? {
        guard let capturePointMilliseconds, let reverseCapturePointMilliseconds else { return nil }
        return capturePointMilliseconds + reverseCapturePointMilliseconds
    }

    /// The path round trip from the smallest capture-point figures: the least delayed by the
    /// endpoints' own scheduling, the usual estimate of the path itself.
    var pathMinimumMilliseconds: Double? {
        guard let capturePointMinimumMilliseconds, let reverseCapturePointMinimumMilliseconds else { return nil }
        return capturePointMinimumMilliseconds + reverseCapturePointMinimumMilliseconds
    }
}

/// Pairs the two directions of each call by address/port symmetry (A→B with B→A) and gives
/// each stream its path round trip from the RTCP of both.
struct PathRoundTrips {
    private let reverseKeys: [UDPFlow: [RTPStreamKey]]
    private let rtcp: [UInt32: RTCPSourceReport]

    init(streamKeys: [RTPStreamKey], rtcp: [UInt32: RTCPSourceReport]) {
        var flows: [UDPFlow: [RTPStreamKey]] = [:]
        for key in streamKeys.sorted() {
            flows[UDPFlow(source: key.source, destination: key.destination), default: []].append(key)
        }
        reverseKeys = flows
        self.rtcp = rtcp
    }

    /// The round trips of the stream `key`: its own SSRC's capture-point figure, and that of
    /// the reverse direction's SSRC that has one.
    func roundTrip(of key: RTPStreamKey) -> StreamRoundTrip {
        let reverse = reverseKeys[UDPFlow(source: key.destination, destination: key.source)] ?? []
        let own = roundTrips(of: key.ssrc)
        let other = reverse.lazy.compactMap { roundTrips(of: $0.ssrc) }.first
        return StreamRoundTrip(
            capturePointMilliseconds: own?.mean, reverseCapturePointMilliseconds: other?.mean,
            capturePointMinimumMilliseconds: own?.minimum, reverseCapturePointMinimumMilliseconds: other?.minimum)
    }

    private func roundTrips(of ssrc: UInt32) -> MinimumMeanMaximum? {
        guard let figures = rtcp[ssrc]?.roundTripMilliseconds, figures.count > 0 else { return nil }
        return figures
    }
}
