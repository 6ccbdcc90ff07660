import Codecs
import Foundation
import Jitter
import PlayoutLab
import RTP
import Testing

/// The analyzer's replay (``StreamPlayoutReplay``, whose buffer decodes tagged payloads) plays
/// exactly what the live buffer (`JitterBuffer` with the codec's own decoder) plays for the same
/// arrivals, pulled at the same times: every sample of every pull, through concealment (Opus:
/// FEC), the merge after it and time-stretching, and the tones of RFC 4733 telephone events sent
/// in place of audio. The independent side is the live path a softphone runs.
@Suite struct ReplayMatchesLiveBufferTests {
    enum Codec: String, CaseIterable, Sendable {
        case pcmu, pcma, opusWithFEC, opusWithoutFEC

        var payloadType: UInt8 {
            switch self {
            case .pcmu: 0
            case .pcma: 8
            case .opusWithFEC, .opusWithoutFEC: 111
            }
        }

        var isOpus: Bool { self == .opusWithFEC || self == .opusWithoutFEC }
        var clockRate: Int { isOpus ? 48_000 : 8000 }
        var samplesPerPacket: Int { clockRate / 50 }
    }

    /// One packet of the test stream: its sequence number and when it arrives.
    struct Arrival {
        var sequence: Int
        var milliseconds: Double
    }

    /// 20 ms packets with deterministic jitter (up to 127 ms for 2.2 s, then up to 6 ms), single
    /// losses and a burst: the buffer conceals, merges, and stretches its delay up and back down.
    static func arrivals(packets: Int) -> [Arrival] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var arrivals: [Arrival] = []
        for sequence in 0..<packets {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let lost = sequence % 23 == 11 || (400..<406).contains(sequence)
            guard !lost else { continue }
            let jitter = (150..<260).contains(sequence) ? Double(state >> 57) : Double(state >> 58) * 0.1
            arrivals.append(Arrival(sequence: sequence, milliseconds: Double(sequence) * 20 + jitter))
        }
        return arrivals.sorted { $0.milliseconds < $1.milliseconds }
    }

    /// A tone that comes and goes (phrases of 1.2 s, pauses of 0.6 s, so the buffer's pause
    /// detector sees both), `count` samples at `rate` from sample `start`.
    static func tone(from start: Int, count: Int, rate: Int) -> [Int16] {
        (start..<(start + count)).map { sample in
            let seconds = Double(sample) / Double(rate)
            let inPhrase = seconds.truncatingRemainder(dividingBy: 1.8) < 1.2
            let amplitude = inPhrase ? 9000.0 * (0.6 + 0.4 * sin(seconds * 8.9)) : 40
            return Int16((amplitude * sin(2 * Double.pi * 230 * seconds)).rounded())
        }
    }

    /// Every packet's payload, in sequence order.
    static func payloads(_ codec: Codec, packets: Int) throws -> [[UInt8]] {
        let frame = codec.samplesPerPacket
        switch codec {
        case .pcmu, .pcma:
            let law: G711Law = codec == .pcmu ? .muLaw : .aLaw
            return (0..<packets).map { tone(from: $0 * frame, count: frame, rate: codec.clockRate).map(law.encode) }
        case .opusWithFEC, .opusWithoutFEC:
            let withFEC = codec == .opusWithFEC
            let encoder = try OpusEncoder(
                configuration: OpusEncoderConfiguration(inbandFEC: withFEC, expectedPacketLossPercent: withFEC ? 10 : 0))
            var packet = [UInt8](repeating: 0, count: 1500)
            return try (0..<packets).map { sequence in
                let pcm = tone(from: sequence * frame, count: frame, rate: codec.clockRate)
                let length = try pcm.withUnsafeBufferPointer { pcm in
                    try packet.withUnsafeMutableBytes { try encoder.encode(pcm, into: $0) }
                }
                return Array(packet[..<length])
            }
        }
    }

    /// The telephone-event format of the streams with events: durations count at 8000 Hz, beside
    /// Opus too (as many peers declare it).
    static let telephoneEvent = TelephoneEventFormat(payloadType: 101, clockRate: 8000)
    /// The packets sent as telephone events in place of audio when the stream has them: digit 5
    /// for 200 ms, digit 9 for 240 ms in the large jitter, digit 0 for 240 ms with its packet
    /// 287 lost (an update of its duration).
    static let events: [(digit: UInt8, packets: Range<Int>)] = [(5, 20..<30), (9, 200..<212), (0, 280..<292)]

    /// The packet `sequence` as an RFC 4733 event of ``events`` (its start timestamp, the
    /// duration so far at the event clock, the E bit on the last), `nil` for an audio packet.
    static func event(_ codec: Codec, sequence: Int) -> (timestamp: UInt32, payload: [UInt8], marker: Bool)? {
        guard let (digit, packets) = events.first(where: { $0.packets.contains(sequence) }) else { return nil }
        let frames = sequence - packets.lowerBound + 1
        let payload = DTMFEventPayload(
            event: digit, isEnd: sequence == packets.upperBound - 1, volume: 10,
            duration: UInt16(frames * telephoneEvent.clockRate / 50))
        var bytes = [UInt8](repeating: 0, count: DTMFEventPayload.byteCount)
        _ = bytes.withUnsafeMutableBytes { try? payload.write(into: $0) }
        return (UInt32(packets.lowerBound * codec.samplesPerPacket), bytes, sequence == packets.lowerBound)
    }

    /// What the replay and the live buffer played, pull by pull, and the live buffer's counters;
    /// with `telephoneEvents`, the packets of ``events`` are events and both buffers know their
    /// format.
    static func play<Decoder: AudioDecoder>(
        _ codec: Codec, replayDecoder: any AudioDecoder, liveDecoder: Decoder, telephoneEvents: Bool = false
    ) throws -> (replayed: [Int16], played: [Int16], statistics: JitterBufferStatistics, replay: PlayoutScore) {
        let arrivals = Self.arrivals(packets: 900)
        let payloads = try Self.payloads(codec, packets: 900)
        var configuration = JitterBufferConfiguration()
        if telephoneEvents { configuration.telephoneEvents = [Self.telephoneEvent] }
        let replay = StreamPlayoutReplay(codec: replayDecoder, clockRate: codec.clockRate, configuration: configuration)
        var replayed: [Int16] = []
        var live = JitterBuffer(decoder: liveDecoder, configuration: configuration)
        var played: [Int16] = []
        let pcm = UnsafeMutableBufferPointer<Int16>.allocate(capacity: live.samplesPerPull)
        defer { pcm.deallocate() }
        // The replay pulls every 10 ms from the first arrival up to each arrival, then inserts.
        var nextPull = arrivals[0].milliseconds
        func pullLive(until time: Double) {
            while nextPull < time {
                _ = live.pull(into: pcm, nowMilliseconds: nextPull)
                played.append(contentsOf: pcm)
                nextPull += 10
            }
        }
        for arrival in arrivals {
            let sequenceNumber = UInt16(arrival.sequence)
            let timestamp = UInt32(arrival.sequence * codec.samplesPerPacket)
            pullLive(until: arrival.milliseconds)
            if telephoneEvents, let event = Self.event(codec, sequence: arrival.sequence) {
                let payloadType = Self.telephoneEvent.payloadType
                event.payload.withUnsafeBytes { bytes in
                    replay.receiveTelephoneEvent(
                        sequenceNumber: sequenceNumber, timestamp: event.timestamp, marker: event.marker,
                        payloadType: payloadType, payload: bytes, arrivalMilliseconds: arrival.milliseconds
                    ) { replayed.append(contentsOf: $0) }
                    live.insert(
                        IncomingPacket(
                            sequenceNumber: sequenceNumber, timestamp: event.timestamp, marker: event.marker,
                            payloadType: payloadType, ssrc: 1, payload: bytes),
                        arrivalMilliseconds: arrival.milliseconds)
                }
                continue
            }
            payloads[arrival.sequence].withUnsafeBytes { bytes in
                replay.receive(
                    sequenceNumber: sequenceNumber, timestamp: timestamp, marker: false, payloadType: codec.payloadType,
                    payload: bytes, arrivalMilliseconds: arrival.milliseconds
                ) { replayed.append(contentsOf: $0) }
                live.insert(
                    IncomingPacket(
                        sequenceNumber: sequenceNumber, timestamp: timestamp, payloadType: codec.payloadType, ssrc: 1,
                        payload: bytes),
                    arrivalMilliseconds: arrival.milliseconds)
            }
        }
        let last = arrivals.map(\.milliseconds).max() ?? 0
        pullLive(until: last + StreamPlayoutReplay.drainMilliseconds + 5)
        replay.finish { replayed.append(contentsOf: $0) }
        return (replayed, played, live.statistics, replay.score)
    }

    /// Both sides' output for `codec`, with or without ``events``.
    static func play(
        _ codec: Codec, telephoneEvents: Bool
    ) throws -> (replayed: [Int16], played: [Int16], statistics: JitterBufferStatistics, replay: PlayoutScore) {
        switch codec {
        case .pcmu:
            try play(codec, replayDecoder: G711Decoder(law: .muLaw), liveDecoder: G711Decoder(law: .muLaw), telephoneEvents: telephoneEvents)
        case .pcma:
            try play(codec, replayDecoder: G711Decoder(law: .aLaw), liveDecoder: G711Decoder(law: .aLaw), telephoneEvents: telephoneEvents)
        case .opusWithFEC, .opusWithoutFEC:
            try play(codec, replayDecoder: try OpusDecoder(), liveDecoder: try OpusDecoder(), telephoneEvents: telephoneEvents)
        }
    }

    @Test(arguments: Codec.allCases)
    func playsWhatTheLiveBufferPlays(codec: Codec) throws {
        let (replayed, played, statistics, _) = try Self.play(codec, telephoneEvents: false)
        // The stream exercised what it is meant to: concealment and stretching both ran (and,
        // for Opus, FEC recovered single losses).
        #expect(statistics.concealmentEvents > 5, "\(statistics)")
        #expect(statistics.insertedSamples + statistics.removedSamples > 0, "\(statistics)")
        if codec == .opusWithFEC { #expect(statistics.recoveredSamples > 0, "\(statistics)") }
        #expect(replayed.count == played.count)
        let firstDifference = played.indices.first { $0 >= replayed.count || replayed[$0] != played[$0] }
        #expect(firstDifference == nil, "first differing sample \(firstDifference ?? -1) of \(played.count)")
    }

    /// Digits sent as RFC 4733 events in place of audio: the replay gives them to its buffer as
    /// the live receive path does, and both play the same tones, sample for sample (without
    /// the replay's events, it conceals there and differs at the first digit).
    @Test(arguments: [Codec.pcmu, .opusWithFEC])
    func playsTheTelephoneEventsTheLiveBufferPlays(codec: Codec) throws {
        let (replayed, played, statistics, _) = try Self.play(codec, telephoneEvents: true)
        // Every digit played as its tone for its whole duration (34 packets of 20 ms), counted
        // at the output rate.
        let frame = codec.isOpus ? 960 : 160
        #expect(statistics.toneSamples >= 34 * frame, "\(statistics)")
        #expect(replayed.count == played.count)
        let firstDifference = played.indices.first { $0 >= replayed.count || replayed[$0] != played[$0] }
        #expect(firstDifference == nil, "first differing sample \(firstDifference ?? -1) of \(played.count)")
    }

    /// An Opus stream sent without LBRR (in-band FEC off): a lost packet is concealed, never
    /// counted as recovered from the next packet, by the live buffer and by the replay, whose
    /// effective loss is then at least the network's. (Before, any Opus packet after a gap was
    /// taken for FEC: libopus conceals then, but the loss was counted as recovered.)
    @Test func anOpusStreamWithoutLBRRIsConcealedNotRecovered() throws {
        let (replayed, played, statistics, replay) = try Self.play(.opusWithoutFEC, telephoneEvents: false)
        #expect(statistics.recoveredSamples == 0, "\(statistics)")
        #expect(statistics.concealmentEvents > 5, "\(statistics)")
        #expect(replay.networkLossPercent > 0)
        #expect(replay.effectiveLossPercent >= replay.networkLossPercent, "\(replay)")
        #expect(replayed == played)
    }
}
