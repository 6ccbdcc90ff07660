import BenchmarkSuites
import Foundation
import Testing

extension JitterPeer: CustomTestStringConvertible {
    public var testDescription: String { name }
}

extension JitterPeer {
    fileprivate func replay(_ trace: borrowing SyntheticTrace, knob: Knob = .default) throws -> PeerPlayout {
        try replay(
            trace: trace.file, frameMilliseconds: SyntheticTrace.frameMilliseconds,
            clockRate: SyntheticTrace.clockRate, knob: knob)
    }
}

/// Milliseconds from each played packet's arrival to the pull that played it.
private func delaysAfterArrival(_ playout: PeerPlayout, _ trace: borrowing SyntheticTrace) -> [Double] {
    playout.pulls.compactMap { pull in
        pull.playedSequence.flatMap { trace.arrival(of: $0) }.map { pull.timeMilliseconds - $0 }
    }
}

/// Runs every peer program for real (C peers are compiled on first use; the pjmedia peer needs
/// the `pjsua2-python` wheel, see scripts/install-deps.sh).
@Suite struct JitterPeerTests {
    /// 50 packets over a network with a constant 40 ms delay; sequence numbers cross 65535 and
    /// RTP timestamps cross 2^32, so the peers see both wrap on the wire.
    private static func idealTrace() throws -> SyntheticTrace {
        try SyntheticTrace(count: 50, firstSeq: 65_530, firstTimestamp: 4_294_967_000) { _ in 40 }
    }

    @Test(arguments: JitterPeer.all)
    func playsEveryPacketOfAnIdealNetworkOnceAndInOrder(peer: JitterPeer) throws {
        let trace = try Self.idealTrace()
        let playout = try peer.replay(trace)
        #expect(playout.playedSequences == trace.arrivedSequences)
        #expect(playout.implementation.hasPrefix(peer.name))
        // One pull per frame from the first arrival, and none missing once playout started.
        for (index, pull) in playout.pulls.enumerated() {
            #expect(pull.timeMilliseconds == 1040 + Double(index) * SyntheticTrace.frameMilliseconds)
        }
        let firstPlayed = try #require(playout.pulls.firstIndex { $0.playedSequence != nil })
        #expect(playout.pulls[firstPlayed...].allSatisfy { $0.playedSequence != nil })
        #expect(playout.pulls[..<firstPlayed].allSatisfy { $0.outcome == .buffering })
    }

    @Test(arguments: JitterPeer.all)
    func reportsTheKnobItRanWith(peer: JitterPeer) throws {
        let trace = try Self.idealTrace()
        let defaults = try peer.replay(trace)
        #expect(defaults.knob == .init(name: peer.knobName, value: Double(peer.defaultKnob), unit: peer.knobUnit))
        let largest = try #require(peer.knobValues.last)
        #expect(try peer.replay(trace, knob: .value(largest)).knob.value == Double(largest))
        #expect(peer.knobSettings.first == .default)
        #expect(!peer.knobSettings.contains(.value(peer.defaultKnob)))
    }

    @Test(arguments: JitterPeer.all)
    func aLostPacketIsAMissingPullAndNeverPlayed(peer: JitterPeer) throws {
        let trace = try SyntheticTrace(count: 50) { $0 == 20 ? nil : 40 }
        let playout = try peer.replay(trace)
        #expect(playout.playedSequences == trace.arrivedSequences)
        let before = try #require(playout.pulls.firstIndex { $0.playedSequence == 19 })
        let after = try #require(playout.pulls.firstIndex { $0.playedSequence == 21 })
        #expect(playout.pulls[(before + 1)..<after].map(\.outcome) == [.missing])
    }

    /// Packet 21 overtakes packet 20 by 5 ms; both arrive before packet 20 is due. pjmedia runs
    /// with a 2-frame prefetch: at its default (no prefetch, zero delay on this trace) it finds
    /// its buffer empty when 21 arrives, restarts on it and drops 20 as too late.
    @Test(arguments: JitterPeer.all)
    func reorderedPacketsPlayInSequenceOrder(peer: JitterPeer) throws {
        let trace = try SyntheticTrace(count: 50) { $0 == 21 ? 15 : 40 }
        let knob: JitterPeer.Knob = peer.name == JitterPeer.pjmedia.name ? .value(2) : .default
        let playout = try peer.replay(trace, knob: knob)
        #expect(playout.playedSequences == Array(0..<50))
    }

    /// GStreamer's sink plays a buffer at PTS + latency; with a constant network delay every
    /// packet plays exactly `latency` after it arrives, and the pulls before are buffering.
    @Test(arguments: [40, 100])
    func gstreamerPlaysEachPacketLatencyAfterItArrives(latency: Int) throws {
        let trace = try Self.idealTrace()
        let playout = try JitterPeer.gstreamer.replay(trace, knob: .value(latency))
        let delays = delaysAfterArrival(playout, trace)
        #expect(delays.count == 50)
        #expect(delays.allSatisfy { $0 == Double(latency) })
    }

    /// pjmedia with prefetch N waits until it holds N frames, so on a constant-delay network
    /// it plays each packet N - 1 frames after it arrives (without prefetch, on arrival).
    @Test(arguments: [(0, 0.0), (2, 20.0)])
    func pjmediaPlaysEachPacketPrefetchMinusOneFramesAfterItArrives(prefetch: Int, delay: Double) throws {
        let trace = try Self.idealTrace()
        let playout = try JitterPeer.pjmedia.replay(trace, knob: .value(prefetch))
        let delays = delaysAfterArrival(playout, trace)
        #expect(delays.count == 50)
        #expect(delays.allSatisfy { $0 == delay })
    }

    /// Every tenth packet comes 60 ms late (100 ms instead of 40). Tolerating 1 % late packets,
    /// speexdsp grows its delay to cover them: over the second half it plays every packet, 100 ms
    /// after it was sent. Tolerating 16 %, it keeps the 40 ms delay and loses exactly the late ones.
    @Test func speexdspTradesDelayForLateLossByItsMaxLateRate() throws {
        let trace = try SyntheticTrace(count: 300) { $0 % 10 == 0 ? 100 : 40 }
        func secondHalf(maxLateRate: Int) throws -> (played: Int, medianDelay: Double) {
            let playout = try JitterPeer.speexdsp.replay(trace, knob: .value(maxLateRate))
            let sendTimes = trace.rows.map(\.sendMilliseconds)
            let delays = playout.pulls.compactMap { pull in
                pull.playedSequence.flatMap { $0 >= 150 ? pull.timeMilliseconds - sendTimes[Int($0)] : nil }
            }.sorted()
            return (delays.count, delays.isEmpty ? .nan : delays[delays.count / 2])
        }
        let strict = try secondHalf(maxLateRate: 1)
        #expect(strict.played == 150)
        #expect(strict.medianDelay == 100)
        let lenient = try secondHalf(maxLateRate: 16)
        #expect(lenient.played == 135)
        #expect(lenient.medianDelay == 40)
    }

    /// GStreamer runs its own threads against the test clock; the peer waits for them at every
    /// step, so replays of a jittery trace are identical.
    @Test func gstreamerReplaysAreDeterministic() throws {
        let trace = try SyntheticTrace(count: 300) { index in
            index % 37 == 0 ? nil : 40 + Double((index * 7919) % 97)
        }
        let first = try JitterPeer.gstreamer.replay(trace, knob: .value(60))
        #expect(first.playedSequences.count > 200)
        for _ in 0..<2 {
            #expect(try JitterPeer.gstreamer.replay(trace, knob: .value(60)) == first)
        }
    }
}
