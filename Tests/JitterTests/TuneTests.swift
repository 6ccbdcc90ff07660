import Foundation
import Jitter
import NetworkModel
import Testing

@Test(.enabled(if: ProcessInfo.processInfo.environment["JITTER_TUNE"] != nil))
func tune() throws {
    var rows: [(String, NetworkTrace)] = [NetworkScenario.moderateJitter, .heavyJitter, .reordering, .burstyLoss, .spikes].map { ($0.rawValue, $0.generate().trace) }
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "../shared/traces/stereo_pcmu_jitter.rtp")))
    rows.append(("real", try RTPDump.trace(from: bytes, clockRate: 8000)))
    for (forget, quantile) in [(0.997, 0.97), (0.997, 0.975), (0.998, 0.97)] {
        var line = "f \(forget) q \(quantile):"
        for (name, trace) in rows {
            var configuration = JitterBufferConfiguration()
            configuration.histogramForgetFactor = forget
            configuration.delayQuantile = quantile
            let packets = simulated(trace)
            let s = PlayoutScore(trace: packets, records: PlayoutSimulator(configuration: configuration).play(packets), clockRate: 8000, samplesPerFrame: 160)
            line += String(format: " %@ %.0f/%.2f/%d", name, s.p95DelayMilliseconds, s.effectiveLossPercent, s.interruptions)
        }
        print(line)
    }
    for fixed in [Double]() {
        var line = "fixed \(fixed):"
        for (name, trace) in rows {
            var configuration = JitterBufferConfiguration()
            configuration.delayPolicy = .fixed(milliseconds: fixed)
            let packets = simulated(trace)
            let s = PlayoutScore(trace: packets, records: PlayoutSimulator(configuration: configuration).play(packets), clockRate: 8000, samplesPerFrame: 160)
            line += String(format: " %@ %.0f/%.2f/%d", name, s.p95DelayMilliseconds, s.effectiveLossPercent, s.interruptions)
        }
        print(line)
    }
}
