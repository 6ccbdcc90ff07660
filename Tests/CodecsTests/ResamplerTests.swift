import Codecs
import Testing

/// Streams `pcm` through `resampler` frame by frame.
func resampleAll(_ pcm: [Int16], with resampler: Resampler) throws -> [Int16] {
    let step = resampler.inputSamplesPerFrame * resampler.inputFormat.channels
    var output: [Int16] = []
    var frame = [Int16](repeating: 0, count: resampler.outputSamplesPerFrame * resampler.outputFormat.channels)
    for start in stride(from: 0, through: pcm.count - step, by: step) {
        let produced = try pcm[start..<start + step].withUnsafeBufferPointer { input in
            try frame.withUnsafeMutableBufferPointer { try resampler.process(input, into: $0) }
        }
        #expect(produced == resampler.outputSamplesPerFrame)
        output += frame
    }
    return output
}

@Suite("speexdsp resampler")
struct ResamplerTests {
    static let rates = [8000, 16_000, 24_000, 32_000, 48_000]

    @Test func roundTripThroughFortyEightKilohertzKeepsATone() throws {
        let up = try Resampler(from: AudioFormat(sampleRate: 8000, channels: 1), toSampleRate: 48_000, quality: 8)
        let down = try Resampler(from: AudioFormat(sampleRate: 48_000, channels: 1), toSampleRate: 8000, quality: 8)
        let tone = OpusTestAudio.tone(frequency: 1000, sampleRate: 8000, count: 8000)
        let roundTrip = try resampleAll(try resampleAll(tone, with: up), with: down)
        #expect(roundTrip.count == tone.count)

        // The two stages' reported latencies add up, in 8 kHz samples.
        let delay = up.inputLatencySamples + down.outputLatencySamples
        #expect(up.inputLatencySamples > 0 && down.outputLatencySamples > 0)
        let settled = 800..<(tone.count - delay)
        let snr = OpusTestAudio.snrDecibels(
            reference: settled.map { tone[$0] }, test: settled.map { roundTrip[$0 + delay] })
        #expect(snr > 40, "round-trip SNR \(snr) dB")
        // A periodic tone hides a delay off by whole periods; a talker does not.
        up.reset()
        down.reset()
        let speech = OpusTestAudio.speechLike(sampleRate: 8000, seconds: 1)
        let speechRoundTrip = try resampleAll(try resampleAll(speech, with: up), with: down)
        let speechSNR = OpusTestAudio.snrDecibels(
            reference: settled.map { speech[$0] }, test: settled.map { speechRoundTrip[$0 + delay] })
        #expect(speechSNR > 30, "speech round-trip SNR \(speechSNR) dB")
    }

    @Test func reportedLatencyIsTheMeasuredDelay() throws {
        let speech = OpusTestAudio.speechLike(sampleRate: 16_000, seconds: 2)
        let resampler = try Resampler(from: AudioFormat(sampleRate: 16_000, channels: 1), toSampleRate: 48_000)
        let output = try resampleAll(speech, with: resampler)
        // The lag (in 48 kHz samples) at which the output best matches the input, upsampled by
        // repetition, is the reported output latency.
        func correlation(lag: Int) -> Double {
            stride(from: 3000, to: speech.count - 100, by: 2).reduce(0.0) { sum, index in
                sum + Double(speech[index]) * Double(output[index * 3 + lag])
            }
        }
        let bestLag = (0..<100).max { correlation(lag: $0) < correlation(lag: $1) }
        #expect(abs((bestLag ?? -1) - resampler.outputLatencySamples) <= 1, "best lag \(bestLag ?? -1), reported \(resampler.outputLatencySamples)")
    }

    @Test(arguments: rates, rates)
    func everyPairGivesWholeFrames(from inputRate: Int, to outputRate: Int) throws {
        let stereo = AudioFormat(sampleRate: inputRate, channels: 2)
        let resampler = try Resampler(from: stereo, toSampleRate: outputRate, frameMilliseconds: 10)
        #expect(resampler.outputSamplesPerFrame == outputRate / 100)
        let tone = OpusTestAudio.tone(frequency: 440, sampleRate: inputRate, count: inputRate / 5)
        let output = try resampleAll(OpusTestAudio.interleave(tone, tone), with: resampler)
        #expect(output.count == 2 * outputRate / 5)
        // Both channels carry the same tone.
        #expect(stride(from: 0, to: output.count, by: 2).allSatisfy { output[$0] == output[$0 + 1] })
    }

    @Test func rejectsWrongFramesAndSettings() throws {
        let resampler = try Resampler(from: AudioFormat(sampleRate: 16_000, channels: 1), toSampleRate: 8000)
        var output = [Int16](repeating: 0, count: 160)
        let short = [Int16](repeating: 0, count: 319)
        #expect(throws: CodecError.wrongFrameSize(expectedSamples: 320, actualSamples: 319)) {
            try short.withUnsafeBufferPointer { input in try output.withUnsafeMutableBufferPointer { try resampler.process(input, into: $0) } }
        }
        let frame = [Int16](repeating: 0, count: 320)
        #expect(throws: CodecError.outputTooSmall(requiredBytes: 320, availableBytes: 318)) {
            try frame.withUnsafeBufferPointer { input in
                try output.withUnsafeMutableBufferPointer { try resampler.process(input, into: UnsafeMutableBufferPointer(rebasing: $0[..<159])) }
            }
        }
        #expect(throws: CodecError.self) { try Resampler(from: AudioFormat(sampleRate: 44_100, channels: 1), toSampleRate: 48_000) }
        #expect(throws: CodecError.self) { try Resampler(from: AudioFormat(sampleRate: 8000, channels: 1), toSampleRate: 16_000, quality: 11) }
        #expect(throws: CodecError.self) { try Resampler(from: AudioFormat(sampleRate: 8000, channels: 1), toSampleRate: 16_000, frameMilliseconds: 30) }
    }
}
