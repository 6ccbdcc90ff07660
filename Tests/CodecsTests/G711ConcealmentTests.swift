import BenchmarkHarness
import Codecs
import Foundation
import Testing
import TestSupport

/// G.711 Appendix I concealment on a voiced synthetic signal.
@Suite("G.711 packet loss concealment")
struct G711ConcealmentTests {
    /// A voiced, vowel-like signal: 137 Hz (a period of 58.4 samples, deliberately not a whole
    /// number) with four decaying harmonics, peak about 12 000.
    static func voiced(count: Int) -> [Int16] {
        (0..<count).map { index in
            let phase = 2 * Double.pi * 137 * Double(index) / 8000
            let value = (1...4).reduce(0.0) { sum, harmonic in
                sum + 6000 / Double(harmonic) * sin(Double(harmonic) * phase + Double(harmonic))
            }
            return Int16(value)
        }
    }

    /// Sends `signal` through a µ-law encoder and decoder in frames of `frameSamples`, dropping
    /// the frames in `lost`; returns what the decoder played.
    static func play(
        _ signal: [Int16], frameSamples: Int, lost: Set<Int>, method: G711ConcealmentMethod
    ) throws -> [Int16] {
        var encoder = try G711Encoder(law: .muLaw, frameDurationMilliseconds: frameSamples / 8)
        var decoder = G711Decoder(law: .muLaw, concealment: method)
        var output = [Int16](repeating: 0, count: signal.count)
        var payload = [UInt8](repeating: 0, count: frameSamples)
        for frame in 0..<(signal.count / frameSamples) {
            let range = frame * frameSamples..<(frame + 1) * frameSamples
            try signal[range].withUnsafeBufferPointer { pcm in
                _ = try payload.withUnsafeMutableBytes { try encoder.encode(pcm, into: $0) }
            }
            let written = try output[range].withUnsafeMutableBufferPointer { out in
                if lost.contains(frame) {
                    return try decoder.decode(lost: frameSamples, into: out)
                }
                return try payload.withUnsafeBytes { payload in try decoder.decode(payload, into: out) }
            }
            #expect(written == frameSamples)
        }
        return output
    }

    /// Normalised cross-correlation of two equally long stretches.
    static func correlation(_ a: ArraySlice<Int16>, _ b: ArraySlice<Int16>) -> Double {
        let pairs = zip(a, b).map { (Double($0), Double($1)) }
        let product = pairs.reduce(0) { $0 + $1.0 * $1.1 }
        let energyA = pairs.reduce(0) { $0 + $1.0 * $1.0 }
        let energyB = pairs.reduce(0) { $0 + $1.1 * $1.1 }
        return product / max(1, (energyA * energyB).squareRoot())
    }

    /// The largest step between neighbouring samples in `range` (and into its first sample).
    static func largestStep(_ samples: [Int16], in range: Range<Int>) -> Int {
        (max(1, range.lowerBound)..<range.upperBound).map { abs(Int(samples[$0]) - Int(samples[$0 - 1])) }.max() ?? 0
    }

    /// RMS of a stretch.
    static func rms(_ samples: ArraySlice<Int16>) -> Double {
        (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))).squareRoot()
    }

    @Test("a concealed frame continues the voiced waveform without a step", arguments: [80, 160])
    func concealedFrameFollowsTheWaveform(frameSamples: Int) throws {
        let signal = Self.voiced(count: 8000)
        let lostFrame = 2400 / frameSamples
        let output = try Self.play(signal, frameSamples: frameSamples, lost: [lostFrame], method: .appendixI)
        let lost = lostFrame * frameSamples..<(lostFrame + 1) * frameSamples
        let truth = try Self.play(signal, frameSamples: frameSamples, lost: [], method: .appendixI)

        // The substitute resembles what was really sent.
        #expect(Self.correlation(output[lost], truth[lost]) > 0.8)
        // No click: steps across the loss and both seams stay within those of the real signal.
        let realStep = Self.largestStep(truth, in: 0..<truth.count)
        let concealedStep = Self.largestStep(output, in: lost.lowerBound..<lost.upperBound + frameSamples)
        #expect(concealedStep <= realStep * 5 / 4, "step \(concealedStep) vs real \(realStep)")
        // Past the blend into the next good frame, the output is the decoded signal again.
        let after = lost.upperBound + frameSamples / 2..<lost.upperBound + frameSamples
        #expect(output[after] == truth[after])
    }

    @Test("frame repetition clicks where Appendix I does not, and zero fill loses the signal")
    func baselinesAreWorse() throws {
        let signal = Self.voiced(count: 8000)
        let lost = 15..<16
        let range = lost.lowerBound * 160..<lost.upperBound * 160 + 160
        let appendixI = try Self.play(signal, frameSamples: 160, lost: Set(lost), method: .appendixI)
        let repetition = try Self.play(signal, frameSamples: 160, lost: Set(lost), method: .frameRepetition)
        let zeroFill = try Self.play(signal, frameSamples: 160, lost: Set(lost), method: .zeroFill)
        #expect(Self.largestStep(repetition, in: range) > Self.largestStep(appendixI, in: range) * 3 / 2)
        #expect(zeroFill[lost.lowerBound * 160..<lost.upperBound * 160].allSatisfy { $0 == 0 })
        // Repetition copies the previous frame exactly.
        #expect(repetition[2400..<2560] == repetition[2240..<2400])
    }

    @Test("a long loss holds for 10 ms, fades 20 % per 10 ms and is silent from 60 ms")
    func longLossFades() throws {
        // 200 Hz with harmonics: a period of exactly 40 samples, so every 10 ms has the same level.
        let signal: [Int16] = (0..<4000).map { index in
            let phase = 2 * Double.pi * 200 * Double(index) / 8000
            return Int16(6000 * sin(phase) + 3000 * sin(2 * phase + 1) + 1500 * sin(3 * phase + 2))
        }
        let output = try Self.play(signal, frameSamples: 80, lost: Set(10..<18), method: .appendixI)  // 80 ms
        let start = 800
        let level = Self.rms(output[start - 80..<start])
        for chunk in 0..<6 {
            // The gain is 1 for 10 ms, then falls linearly by 0.2 per 10 ms.
            let meanSquareGain = (0..<80).reduce(0.0) { sum, index in
                let gain = max(0, 1 - 0.2 * Double(max(0, 80 * chunk + index - 80)) / 80)
                return sum + gain * gain / 80
            }
            let ratio = Self.rms(output[start + 80 * chunk..<start + 80 * (chunk + 1)]) / level
            #expect(abs(ratio - meanSquareGain.squareRoot()) < 0.03, "10 ms chunk \(chunk): level \(ratio)")
        }
        #expect(output[start + 480..<start + 640].allSatisfy { $0 == 0 })
        // The first good frame fades in from silence instead of starting with a jump, and is
        // the decoded signal once the blend (10 ms at most) is over.
        #expect(Self.largestStep(output, in: start + 640..<start + 720) <= Self.largestStep(output, in: 0..<start))
        let decoded: [Int16] = signal[start + 720..<start + 800].map(G711Law.muLaw.roundTrip)
        #expect(Array(output[start + 720..<start + 800]) == decoded)
    }

    @Test("decoding and concealing allocate nothing per frame", .countsAllocations)
    func decodingAndConcealingAllocateNothing() throws {
        var decoder = G711Decoder(law: .aLaw)
        let payload = [UInt8](repeating: 0x55, count: 160)
        var pcm = [Int16](repeating: 0, count: 160)
        // The counter sees every thread and other tests run in parallel, so each call is counted
        // on its own and the fewest allocations seen for each kind of call is what it costs.
        var fewest = [String: UInt64]()
        try pcm.withUnsafeMutableBufferPointer { pcm in
            try payload.withUnsafeBytes { payload in
                _ = try decoder.decode(payload, into: pcm)  // warm-up
                for round in 0..<60 {
                    let kind = ["first lost frame", "next lost frame", "frame after a loss", "good frame"][round % 4]
                    let counted = try AllocationCounter.counting {
                        try round % 4 < 2 ? decoder.decode(lost: 160, into: pcm) : decoder.decode(payload, into: pcm)
                    }
                    fewest[kind] = min(fewest[kind] ?? .max, counted.allocations)
                }
            }
        }
        #expect(fewest.count == 4 && fewest.values.allSatisfy { $0 == 0 }, "\(fewest)")
    }
}

extension G711Law {
    /// `sample` after encoding and decoding.
    func roundTrip(_ sample: Int16) -> Int16 {
        decode(encode(sample))
    }
}
