import Codecs
import Foundation
import Jitter
import PlayoutLab
import Testing

/// The analyzer's replay (``StreamPlayoutReplay``, whose buffer decodes tagged payloads) plays
/// exactly what the live buffer (`JitterBuffer` with the codec's own decoder) plays for the same
/// arrivals, pulled at the same times: every sample of every pull, through concealment, the
/// merge after it and time-stretching. The independent side is the live path a softphone runs.
@Suite struct ReplayMatchesLiveBufferTests {
    /// One packet of the test stream: its sequence number and when it arrives.
    struct Arrival {
        var sequence: Int
        var milliseconds: Double
    }

    /// 20 ms packets of a tone that comes and goes (phrases of 1.2 s, pauses of 0.6 s, so the
    /// buffer's pause detector sees both), with deterministic jitter (up to 127 ms for 2.2 s,
    /// then up to 6 ms), single losses and a burst: the buffer conceals, merges, and stretches
    /// its delay up and back down.
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

    /// The G.711 payload of packet `sequence`: 160 codes of the tone (silence in its pauses).
    static func payload(_ sequence: Int, law: G711Law) -> [UInt8] {
        (0..<160).map { index in
            let sample = sequence * 160 + index
            let inPhrase = sample % 14_400 < 9600
            let amplitude = inPhrase ? 9000.0 * (0.6 + 0.4 * sin(Double(sample) / 900)) : 40
            let value = amplitude * sin(2 * Double.pi * 230 * Double(sample) / 8000)
            return law.encode(Int16(value.rounded()))
        }
    }

    @Test(arguments: [G711Law.muLaw, .aLaw])
    func playsWhatTheLiveBufferPlays(law: G711Law) {
        let arrivals = Self.arrivals(packets: 900)
        let payloadType: UInt8 = law == .muLaw ? 0 : 8
        let replay = StreamPlayoutReplay(codec: G711Decoder(law: law), clockRate: 8000)
        var replayed: [Int16] = []
        var live = JitterBuffer(decoder: G711Decoder(law: law))
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
            let codes = Self.payload(arrival.sequence, law: law)
            let sequenceNumber = UInt16(arrival.sequence)
            let timestamp = UInt32(arrival.sequence * 160)
            pullLive(until: arrival.milliseconds)
            codes.withUnsafeBytes { bytes in
                replay.receive(
                    sequenceNumber: sequenceNumber, timestamp: timestamp, marker: false, payloadType: payloadType,
                    payload: bytes, arrivalMilliseconds: arrival.milliseconds
                ) { replayed.append(contentsOf: $0) }
                live.insert(
                    IncomingPacket(
                        sequenceNumber: sequenceNumber, timestamp: timestamp, payloadType: payloadType, ssrc: 1, payload: bytes),
                    arrivalMilliseconds: arrival.milliseconds)
            }
        }
        let last = arrivals.map(\.milliseconds).max() ?? 0
        pullLive(until: last + StreamPlayoutReplay.drainMilliseconds + 5)
        replay.finish { replayed.append(contentsOf: $0) }

        let statistics = live.statistics
        // The stream exercised what it is meant to: concealment and stretching both ran.
        #expect(statistics.concealmentEvents > 5)
        #expect(statistics.insertedSamples + statistics.removedSamples > 0)
        #expect(replayed.count == played.count, "\(statistics)")
        let firstDifference = played.indices.first { $0 >= replayed.count || replayed[$0] != played[$0] }
        #expect(firstDifference == nil, "first differing sample \(firstDifference ?? -1) of \(played.count)")
    }
}
