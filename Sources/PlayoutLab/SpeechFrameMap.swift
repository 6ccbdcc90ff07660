/// Which frame of a speech recording each packet of a network trace carries, so that speech
/// rides a trace the way a sender would send it: the k-th packet sent (in sequence order, a
/// duplicate once, a lost one too) carries frame k, cycling when the trace outlasts the speech.
/// A DTX trace's gaps (timestamps that jump further than the sequence numbers) are then
/// silence between frames, not frames of speech that were never sent; the listener's
/// reference (``referenceTimeline(speech:samplesPerFrame:)``) has the same silence at the same media time.
public struct SpeechFrameMap: Sendable {
    /// Samples per frame (RTP timestamp units per packet).
    public let samplesPerFrame: Int
    /// The RTP timestamp of the first packet sent.
    public let firstTimestamp: UInt64
    /// The frame each sent packet's timestamp carries.
    private let frames: [UInt64: Int]
    /// The timestamps sent, in sequence order.
    private let sentTimestamps: [UInt64]

    /// The map of `packets` (a trace, in send order) with frames of `samplesPerFrame`.
    public init(packets: [SimulatedPacket], samplesPerFrame: Int) {
        self.samplesPerFrame = max(samplesPerFrame, 1)
        var seen = Set<UInt64>()
        let sent = packets.filter { seen.insert($0.sequenceNumber).inserted }.sorted { $0.sequenceNumber < $1.sequenceNumber }
        sentTimestamps = sent.map(\.rtpTimestamp)
        firstTimestamp = sentTimestamps.first ?? 0
        var frames: [UInt64: Int] = [:]
        for (index, timestamp) in sentTimestamps.enumerated() where frames[timestamp] == nil { frames[timestamp] = index }
        self.frames = frames
    }

    /// The frame (an index that grows without end; take it modulo the frames of the speech) the
    /// packet with this timestamp carries; a timestamp no packet was sent with gets the frame
    /// its distance from the first timestamp gives.
    public func frame(forTimestamp rtpTimestamp: UInt64) -> Int {
        if let frame = frames[rtpTimestamp] { return frame }
        return rtpTimestamp > firstTimestamp ? Int(clamping: (rtpTimestamp - firstTimestamp) / UInt64(samplesPerFrame)) : 0
    }

    /// What the sender sent, on the media timeline from the first timestamp: each sent packet's
    /// frame of `speech` (mono, `speechSamplesPerFrame` samples of it per packet, cycling) at its
    /// timestamp, silence where the sender sent nothing. The timeline counts speech samples
    /// (the speech's rate may differ from the RTP clock's: 16 kHz speech on 48 kHz Opus).
    public func referenceTimeline(speech: [Int16], samplesPerFrame speechSamplesPerFrame: Int) -> [Int16] {
        let frameCount = speech.count / max(speechSamplesPerFrame, 1)
        guard frameCount > 0, let last = sentTimestamps.max() else { return [] }
        func position(_ timestamp: UInt64) -> Int { Int((timestamp - firstTimestamp) * UInt64(speechSamplesPerFrame) / UInt64(samplesPerFrame)) }
        var timeline = [Int16](repeating: 0, count: position(last) + speechSamplesPerFrame)
        for (index, timestamp) in sentTimestamps.enumerated() where timestamp >= firstTimestamp {
            let source = (index % frameCount) * speechSamplesPerFrame
            let target = position(timestamp)
            timeline.replaceSubrange(
                target..<(target + speechSamplesPerFrame), with: speech[source..<(source + speechSamplesPerFrame)]
            )
        }
        return timeline
    }
}
