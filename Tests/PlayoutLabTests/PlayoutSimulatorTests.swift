import Foundation
import Jitter
import PlayoutLab
import NetworkModel
import TestSupport
import Testing

/// The trace rows as the simulator takes them.
func simulated(_ trace: NetworkTrace) -> [SimulatedPacket] {
    trace.packets.map {
        SimulatedPacket(
            sequenceNumber: $0.sequenceNumber, rtpTimestamp: $0.rtpTimestamp, sendMilliseconds: $0.sendMilliseconds,
            arrivalMilliseconds: $0.arrivalMilliseconds
        )
    }
}

/// Replays `trace` and scores it.
func score(_ trace: NetworkTrace, policy: DelayPolicy = .adaptive, receiverDriftPPM: Double = 0) -> PlayoutScore {
    var configuration = JitterBufferConfiguration()
    configuration.delayPolicy = policy
    let simulator = PlayoutSimulator(receiverClockDriftPPM: receiverDriftPPM, configuration: configuration)
    let packets = simulated(trace)
    return PlayoutScore(trace: packets, records: simulator.play(packets), clockRate: 8000, samplesPerFrame: 160)
}

@Suite struct PlayoutSimulatorTests {
    @Test func cleanNetworkPlaysEverythingAtLowDelay() {
        let result = score(NetworkScenario.clean.generate().trace)
        #expect(result.effectiveLossPercent == 0)
        #expect(result.concealmentEvents == 0)
        #expect(result.p95DelayMilliseconds < 70, "40 ms of network plus a few ms of buffer")
        #expect(result.p50DelayMilliseconds >= 40)
    }

    @Test func scorerCountsNetworkLateAndEffectiveLossFromThePlayout() {
        // 200 packets: #100 lost; #150 arrives 400 ms late; the rest after 40 ms.
        let packets = (0..<200).map { (index: Int) -> SimulatedPacket in
            let send = Double(index * 20)
            let delay: Double? = index == 100 ? nil : index == 150 ? 400 : 40
            return SimulatedPacket(
                sequenceNumber: UInt64(1000 + index), rtpTimestamp: UInt64(index * 160), sendMilliseconds: send,
                arrivalMilliseconds: delay.map { send + $0 }
            )
        }
        let simulator = PlayoutSimulator()
        let result = PlayoutScore(trace: packets, records: simulator.play(packets), clockRate: 8000, samplesPerFrame: 160)
        #expect(result.networkLossPercent == 0.5)
        #expect(result.lateLossPercent == 0.5)
        #expect(result.effectiveLossPercent == 1)
        #expect(result.concealmentEvents == 2)
        #expect(result.interruptions == 0)
    }

    @Test func spikeRecoversWithinTwoSeconds() {
        let generated = NetworkScenario.spikes.generate()
        let result = score(generated.trace)
        #expect(result.recoveryMilliseconds.count == generated.stalls.count)
        for recovery in result.recoveryMilliseconds {
            #expect(recovery != nil && recovery! < 2000, "\(result.recoveryMilliseconds)")
        }
        #expect(result.interruptions <= generated.stalls.count, "no interruption beyond the stalls themselves")
    }

    /// Ten minutes of ±1000 ppm sender drift: left alone it would move the delay by 600 ms.
    @Test(arguments: [NetworkScenario.driftFast, .driftSlow])
    func driftShowsNoDelayTrendOverTenMinutes(scenario: NetworkScenario) {
        var profile = scenario.profile
        profile.durationSeconds = 600
        let packets = simulated(TraceGenerator(profile: profile).generate(seed: 1).trace)
        let records = PlayoutSimulator().play(packets)
        let result = PlayoutScore(trace: packets, records: records, clockRate: 8000, samplesPerFrame: 160)
        #expect(result.effectiveLossPercent < 0.5)
        // Mean delay per minute after the first, and its trend by least squares.
        let windows = stride(from: 60_000.0, to: 600_000, by: 60_000).map { start -> (Double, Double) in
            let slice = PlayoutScore(
                trace: packets, records: records.filter { (start..<(start + 60_000)).contains($0.timeMilliseconds) },
                clockRate: 8000, samplesPerFrame: 160
            )
            return (start / 1000, slice.meanDelayMilliseconds)
        }
        let meanTime = windows.map(\.0).reduce(0, +) / Double(windows.count)
        let meanDelay = windows.map(\.1).reduce(0, +) / Double(windows.count)
        let slope =
            windows.map { ($0.0 - meanTime) * ($0.1 - meanDelay) }.reduce(0, +)
            / windows.map { ($0.0 - meanTime) * ($0.0 - meanTime) }.reduce(0, +)
        let delays = windows.map { Int($0.1) }
        #expect(abs(slope) < 0.01, "delay trend \(slope) ms/s over \(delays)")
        // Minute to minute the delay wanders within the dead band of its target (2–20 ms).
        #expect(windows.map(\.1).max()! - windows.map(\.1).min()! < 10, "\(delays)")
    }

    @Test(arguments: [1000.0, -1000.0])
    func receiverDriftIsAbsorbedToo(ppm: Double) {
        let packets = simulated(NetworkScenario.clean.generate().trace)
        let records = PlayoutSimulator(receiverClockDriftPPM: ppm).play(packets)
        let settled = PlayoutScore(
            trace: packets, records: records.filter { $0.timeMilliseconds > 3000 }, clockRate: 8000, samplesPerFrame: 160
        )
        let whole = PlayoutScore(trace: packets, records: records, clockRate: 8000, samplesPerFrame: 160)
        #expect(whole.effectiveLossPercent < 0.5)
        if ppm > 0 {
            // A fast receiver drains the buffer: the delay grows back within the dead band.
            #expect(settled.p99DelayMilliseconds - settled.p50DelayMilliseconds < 15)
        } else {
            // A slow one fills it: the delay is shrunk only once the mouth-to-ear delay (the
            // playout delay, transit included, and a 20 ms packet) passes the 110 ms a
            // conversation gets for free, give or take the drift until the next pause.
            #expect(settled.p99DelayMilliseconds + 20 < 115, "p99 \(settled.p99DelayMilliseconds) ms")
        }
    }

    /// Prints the figures of every scenario, ours and fixed baselines (`JITTER_FIGURES=1`).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["JITTER_FIGURES"] != nil))
    func printFigures() throws {
        var rows: [(String, NetworkTrace)] = NetworkScenario.allCases.map { ($0.rawValue, $0.generate().trace) }
        for name in ["stereo_pcmu_jitter.rtp", "stereo_pcmu_vad_jitter.rtp"] {
            let bytes = try [UInt8](Data(contentsOf: Fixtures.trace(name)))
            rows.append((name, try RTPDump.trace(from: bytes, clockRate: 8000)))
        }
        print("trace | buffer | p50 | p95 | p99 ms | net/late/eff loss % | conceal % | events | interruptions | stretch % | recovery ms | pull µs")
        for (name, trace) in rows {
            for (label, policy) in [("ours", DelayPolicy.adaptive), ("fixed:40", .fixed(milliseconds: 40)), ("fixed:100", .fixed(milliseconds: 100))] {
                let s = score(trace, policy: policy)
                let recovery = s.recoveryMilliseconds.map { $0.map { String(Int($0)) } ?? "never" }.joined(separator: " ")
                print(
                    "\(name) | \(label) | \(Int(s.p50DelayMilliseconds)) | \(Int(s.p95DelayMilliseconds)) | \(Int(s.p99DelayMilliseconds)) | "
                        + String(format: "%.2f/%.2f/%.2f", s.networkLossPercent, s.lateLossPercent, s.effectiveLossPercent)
                        + String(format: " | %.2f | %d | %d | %.2f | ", s.concealmentPercent, s.concealmentEvents, s.interruptions, s.timeStretchPercent)
                        + recovery + String(format: " | %.1f", s.medianPullMicroseconds)
                )
            }
        }
    }
}
