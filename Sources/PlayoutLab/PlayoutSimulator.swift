import Jitter
import Codecs
import RTP

/// One row of a network trace to replay: a packet as sent and when (if ever) it arrived.
/// A duplicate is a second row with the same sequence number.
public struct SimulatedPacket: Sendable, Equatable {
    /// The RTP sequence number, unwrapped to 64 bits.
    public var sequenceNumber: UInt64
    /// The RTP timestamp, unwrapped to 64 bits.
    public var rtpTimestamp: UInt64
    /// When it was sent, in milliseconds on the receiver's clock.
    public var sendMilliseconds: Double
    /// When it arrived, in milliseconds on the receiver's clock; `nil` when lost.
    public var arrivalMilliseconds: Double?

    /// A trace row.
    public init(sequenceNumber: UInt64, rtpTimestamp: UInt64, sendMilliseconds: Double, arrivalMilliseconds: Double?) {
        self.sequenceNumber = sequenceNumber
        self.rtpTimestamp = rtpTimestamp
        self.sendMilliseconds = sendMilliseconds
        self.arrivalMilliseconds = arrivalMilliseconds
    }
}

/// What one pull played, as the simulator observed it.
public struct PlayoutRecord: Sendable, Equatable {
    /// The pull time, in milliseconds on the arrival clock.
    public var timeMilliseconds: Double
    /// The buffer's decision.
    public var kind: PlayoutDecision.Kind
    /// The unwrapped RTP timestamp of the first sample played.
    public var rtpTimestamp: UInt64
    /// The sequence numbers the decoder decoded (or recovered by FEC) during this pull.
    public var decodedSequenceNumbers: [UInt64]
    /// The wall time the pull took, in microseconds.
    public var pullMicroseconds: Double

    /// A record; scoring another buffer's playout builds these from what it played.
    public init(
        timeMilliseconds: Double, kind: PlayoutDecision.Kind, rtpTimestamp: UInt64, decodedSequenceNumbers: [UInt64],
        pullMicroseconds: Double
    ) {
        self.timeMilliseconds = timeMilliseconds
        self.kind = kind
        self.rtpTimestamp = rtpTimestamp
        self.decodedSequenceNumbers = decodedSequenceNumbers
        self.pullMicroseconds = pullMicroseconds
    }
}

/// What a listener heard from a replay (``PlayoutSimulator/render(_:decoder:payload:)``) and
/// the playout that made it.
public struct RenderedPlayout: Sendable {
    /// The PCM of every pull, in order, in the decoder's format.
    public var audio: [Int16]
    /// One record per pull.
    public var records: [PlayoutRecord]
}

/// Replays a network trace through a `JitterBuffer` with a 10 ms pull clock and records what
/// was played. Deterministic: the same trace and settings give the same playout (only the
/// measured pull durations vary).
///
/// ``play(_:)`` plays 20 ms (or `samplesPerFrame`) frames of ``SyntheticVoiceDecoder`` (pausing
/// like read speech, so the buffer moves its delay as it would with speech), whose payload
/// names each packet, so the playout shows exactly which packets were played; it stands in
/// where no speech is given. ``render(_:decoder:payload:)`` plays real encoded speech, whose
/// own pauses move the delay, and records its playout the same way. A packet
/// starts a talkspurt (RTP marker) when it is the first, or when its timestamp jumped further
/// than its sequence number explains (DTX).
public struct PlayoutSimulator: Sendable {
    /// The RTP clock rate of the trace.
    public var clockRate: Int
    /// RTP timestamp units per packet.
    public var samplesPerFrame: Int
    /// How much faster the receiver's audio clock runs than its arrival clock, in parts per
    /// million: pulls come every 10/(1 + ppm·10⁻⁶) ms.
    public var receiverClockDriftPPM: Double
    /// The buffer's settings (`DelayPolicy.fixed(milliseconds:)` for the fixed baseline).
    public var configuration: JitterBufferConfiguration

    /// A simulator for a trace of `clockRate` Hz with frames of `samplesPerFrame`.
    public init(
        clockRate: Int = 8000, samplesPerFrame: Int = 160, receiverClockDriftPPM: Double = 0,
        configuration: JitterBufferConfiguration = JitterBufferConfiguration()
    ) {
        self.clockRate = clockRate
        self.samplesPerFrame = samplesPerFrame
        self.receiverClockDriftPPM = receiverClockDriftPPM
        self.configuration = configuration
    }

    /// Replays `packets` (in send order) and returns one record per pull, from the first
    /// arrival until half a second after the last.
    public func play(_ packets: [SimulatedPacket]) -> [PlayoutRecord] {
        replay(
            packets, decoder: SyntheticVoiceDecoder(clockRate: clockRate, samplesPerFrame: samplesPerFrame, pauses: .readSpeech),
            payload: { packet in
                var payload = [UInt8](repeating: 0, count: SyntheticVoiceDecoder.payloadBytes)
                payload.withUnsafeMutableBytes {
                    SyntheticVoiceDecoder.writePayload(sequenceNumber: packet.sequenceNumber, timestamp: packet.rtpTimestamp, into: $0)
                }
                return payload
            },
            drainPlayed: { decoder, played in
                for event in decoder.events {
                    switch event {
                    case let .decoded(sequence), let .recovered(sequence): played.append(sequence)
                    case .concealed: break
                    }
                }
                decoder.clearEvents()
            }
        ).records
    }

    /// Replays `packets` through a real codec and returns what a listener would hear (the PCM
    /// of every pull, in order) and the playout that made it, one record per pull as
    /// ``play(_:)`` gives them: a buffer that moves its delay in the pauses of what it decodes
    /// plays this audio differently from the synthetic voice, so its delay and loss are those
    /// of this replay. `payload` gives each packet's encoded frame; each payload is tagged
    /// with its packet (``TaggedPayloadDecoder``), which the codec never sees.
    public func render<Decoder: AudioDecoder>(
        _ packets: [SimulatedPacket], decoder: Decoder, payload: (SimulatedPacket) -> [UInt8]
    ) -> RenderedPlayout {
        let outputSamplesPerFrame = samplesPerFrame * decoder.format.sampleRate / max(clockRate, 1)
        return replay(
            packets, decoder: TaggedPayloadDecoder(codec: decoder, clockRate: clockRate),
            payload: { packet in
                let codecBytes = payload(packet)
                var tagged = [UInt8](repeating: 0, count: TaggedPayloadDecoder.tagBytes)
                tagged.withUnsafeMutableBytes {
                    TaggedPayloadDecoder.writeTag(sequenceNumber: packet.sequenceNumber, samples: outputSamplesPerFrame, into: $0)
                }
                return tagged + codecBytes
            },
            drainPlayed: { decoder, played in _ = decoder.drainPlayed { played.append($0) } }
        )
    }

    /// The replay loop: inserts each packet when the pull clock reaches its arrival, pulls every
    /// 10 ms (of the receiver's clock), and keeps each pull's PCM and its record (the sequence
    /// numbers played during the pull are those `drainPlayed` takes from the decoder).
    private func replay<Decoder: AudioDecoder>(
        _ packets: [SimulatedPacket], decoder: Decoder, payload: (SimulatedPacket) -> [UInt8],
        drainPlayed: (inout Decoder, inout [UInt64]) -> Void
    ) -> RenderedPlayout {
        var rendered = RenderedPlayout(audio: [], records: [])
        let arrivals = packets.enumerated()
            .compactMap { index, packet in packet.arrivalMilliseconds.map { (index: index, time: $0, packet: packet) } }
            .sorted { ($0.time, $0.index) < ($1.time, $1.index) }
        guard let first = arrivals.first, let last = arrivals.last else { return rendered }
        let talkspurtStarts = Self.talkspurtStarts(packets, samplesPerFrame: samplesPerFrame)
        var buffer = JitterBuffer(decoder: decoder, configuration: configurationKnowingTheNetwork(packets))
        var pcm = [Int16](repeating: 0, count: buffer.samplesPerPull * buffer.format.channels)
        // The buffer's 32-bit playout timestamps, extended to the trace's 64 bits.
        var playoutTimestamp = first.packet.rtpTimestamp
        var played: [UInt64] = []
        let interval = 10 / (1 + receiverClockDriftPPM * 1e-6)
        let clock = ContinuousClock()
        var next = 0
        var pull = 0
        while true {
            let now = first.time + Double(pull) * interval
            guard now <= last.time + 500 else { break }
            while next < arrivals.count, arrivals[next].time <= now {
                let packet = arrivals[next].packet
                _ = payload(packet).withUnsafeBytes { bytes in
                    buffer.insert(
                        IncomingPacket(
                            sequenceNumber: UInt16(truncatingIfNeeded: packet.sequenceNumber),
                            timestamp: UInt32(truncatingIfNeeded: packet.rtpTimestamp),
                            marker: talkspurtStarts.contains(packet.sequenceNumber), payloadType: 0, ssrc: 1, payload: bytes
                        ),
                        arrivalMilliseconds: arrivals[next].time
                    )
                }
                next += 1
            }
            let started = clock.now
            let decision = pcm.withUnsafeMutableBufferPointer { buffer.pull(into: $0, nowMilliseconds: now) }
            let elapsed = clock.now - started
            let microseconds = Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6
            played.removeAll(keepingCapacity: true)
            drainPlayed(&buffer.decoder, &played)
            playoutTimestamp = RTPTimestamp(decision.rtpTimestamp).extended(near: playoutTimestamp)
            rendered.records.append(
                PlayoutRecord(
                    timeMilliseconds: now, kind: decision.kind, rtpTimestamp: playoutTimestamp, decodedSequenceNumbers: played,
                    pullMicroseconds: microseconds
                )
            )
            rendered.audio += pcm
            pull += 1
        }
        return rendered
    }

    /// The configuration, with a conversational target told the one-way delay outside the
    /// buffer as a call learns it from RTCP (half the round trip): the fastest transit of the
    /// trace plus one frame of packetisation.
    private func configurationKnowingTheNetwork(_ packets: [SimulatedPacket]) -> JitterBufferConfiguration {
        var known = configuration
        guard known.conversationalBaseDelayMilliseconds != nil,
            let fastest = packets.compactMap({ packet in packet.arrivalMilliseconds.map { $0 - packet.sendMilliseconds } }).min()
        else { return known }
        known.conversationalBaseDelayMilliseconds = max(fastest, 0) + Double(samplesPerFrame) * 1000 / Double(max(clockRate, 1))
        return known
    }

    /// The sequence numbers that start a talkspurt.
    static func talkspurtStarts(_ packets: [SimulatedPacket], samplesPerFrame: Int) -> Set<UInt64> {
        var starts = Set<UInt64>()
        var previous: SimulatedPacket?
        for packet in packets {
            if let previous {
                guard packet.sequenceNumber > previous.sequenceNumber else { continue }  // a duplicate
                let explained = (packet.sequenceNumber - previous.sequenceNumber) &* UInt64(samplesPerFrame)
                if packet.rtpTimestamp > previous.rtpTimestamp &+ explained { starts.insert(packet.sequenceNumber) }
            } else {
                starts.insert(packet.sequenceNumber)
            }
            previous = packet
        }
        return starts
    }
}
