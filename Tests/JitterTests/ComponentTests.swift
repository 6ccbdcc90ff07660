import Testing

@testable import Jitter
import PlayoutLab
import TestSupport

@Suite struct TimeStretcherTests {
    /// A 100 Hz sawtooth-free voice at 8 kHz: an 80-sample pitch period.
    func voice(frames: Int, period: Int = 80) -> [Int16] {
        (0..<frames).map { index in
            let phase = Double(index % period) / Double(period)
            return Int16(8000 * (phase < 0.5 ? 4 * phase - 1 : 3 - 4 * phase))
        }
    }

    @Test(arguments: [TimeStretcher.Direction.shorten, .lengthen])
    func stretchesByWholePitchPeriodsWithoutClicks(direction: TimeStretcher.Direction) {
        let stretcher = TimeStretcher(sampleRate: 8000, channels: 1)
        let live = 400
        var samples = voice(frames: live) + [Int16](repeating: 0, count: 200)
        let change = samples.withUnsafeMutableBufferPointer { region in
            stretcher.stretch(direction, region: region, liveFrames: live, keepingFrames: 80, longestFrames: 120)
        }
        #expect(change == (direction == .shorten ? -80 : 80), "one pitch period of 80 samples")
        let result = direction == .shorten ? Array(samples[80..<live]) : Array(samples[0..<(live + 80)])
        // A whole period removed or repeated leaves the waveform exactly as it was: the same
        // sawtooth, continuing its phase, so no jump larger than the signal's own steps.
        let largestStep = zip(result, result.dropFirst()).map { abs(Int($1) - Int($0)) }.max() ?? 0
        #expect(largestStep <= 410)
        #expect(result == voice(frames: result.count))
    }

    @Test func refusesNoiseButStretchesSilence() {
        let stretcher = TimeStretcher(sampleRate: 8000, channels: 1)
        var state: UInt32 = 1
        var noise =
            (0..<400).map { _ -> Int16 in
                state = state &* 1_103_515_245 &+ 12345
                return Int16(truncatingIfNeeded: Int32(state >> 16) - 32768) / 2
            } + [Int16](repeating: 0, count: 200)
        let noiseChange = noise.withUnsafeMutableBufferPointer {
            stretcher.stretch(.lengthen, region: $0, liveFrames: 400, keepingFrames: 80, longestFrames: 120)
        }
        #expect(noiseChange == 0, "no period correlates in white noise")
        var silence = [Int16](repeating: 3, count: 600)
        let silenceChange = silence.withUnsafeMutableBufferPointer {
            stretcher.stretch(.shorten, region: $0, liveFrames: 400, keepingFrames: 80, longestFrames: 120)
        }
        #expect(silenceChange < 0)
    }

    @Test func neverRemovesMoreThanAllowed() {
        let stretcher = TimeStretcher(sampleRate: 8000, channels: 1)
        var samples = voice(frames: 400) + [Int16](repeating: 0, count: 200)
        let change = samples.withUnsafeMutableBufferPointer {
            stretcher.stretch(.shorten, region: $0, liveFrames: 400, keepingFrames: 80, longestFrames: 30)
        }
        #expect(change == 0 || -change <= 30)
    }
}

@Suite struct BufferPartsTests {
    /// The sliding minimum (its candidates' values and serials in one block) against the plain
    /// definition, the smallest of the last `window` values, over a seeded walk with ties,
    /// runs and a window of one; and after `removeAll()` it forgets what came before.
    @Test(arguments: [1, 2, 7, 50])
    func slidingMinimumMatchesTheSmallestOfTheWindow(window: Int) {
        var minimum = SlidingMinimum(window: window)
        var generator = SplitMix64(seed: UInt64(window))
        var values: [Double] = []
        for step in 0..<2000 {
            if step == 1000 {
                minimum.removeAll()
                values.removeAll()
            }
            // Small integers: many ties; a slow drift: long increasing and decreasing runs.
            let value = Double(Int.random(in: 0..<8, using: &generator)) + Double(step % 300) / 10
            values.append(value)
            let expected = values.suffix(window).min()!
            #expect(minimum.append(value) == expected, "step \(step)")
        }
    }

    @Test func histogramQuantileAndForgetting() {
        var histogram = DelayHistogram(bucketMilliseconds: 2, maximumMilliseconds: 1000)
        for index in 0..<100 { histogram.add(Double(index), forgetFactor: 0.99) }
        // Equal weights during start-up: the 95th percentile of 0…99 is 94, in bucket (94, 96].
        #expect(histogram.value(atQuantile: 0.95) == 96)
        for _ in 0..<1000 { histogram.add(10, forgetFactor: 0.99) }
        #expect(histogram.value(atQuantile: 0.95) == 12, "old samples forgotten")
        histogram.add(5000, forgetFactor: 0.99)
        #expect(histogram.value(atQuantile: 0.999) == 1000, "clamped to the last bucket")
    }

    @Test func histogramWeightAboveADelay() {
        var histogram = DelayHistogram(bucketMilliseconds: 2, maximumMilliseconds: 1000)
        for index in 0..<100 { histogram.add(Double(index), forgetFactor: 0.99) }
        // Equal weights during start-up: 50…99 lie in the buckets wholly above 50 ms.
        #expect(abs(histogram.weight(above: 50) - 0.5) < 1e-9)
        #expect(abs(histogram.weight(above: 49) - 0.5) < 1e-9, "a bucket only partly above is not counted")
        #expect(abs(histogram.weight(above: 0) - 1) < 1e-9)
        #expect(histogram.weight(above: 100) == 0)
        #expect(histogram.weight(above: -.infinity) == 1 && histogram.weight(above: .nan) == 0)
    }

    @Test func receivedWindowTellsDuplicates() {
        var window = ReceivedWindow()
        let seen = [100, 100, 99, 2000, 100, 2000].map { window.insert(UInt64($0)) }
        // The second 100 is a duplicate; after 2000, 100 is outside the 1024 window and forgotten.
        #expect(seen == [false, true, false, false, false, true])
    }

    @Test func pcmQueueKeepsOrderAcrossCompactionAndTruncatesWhenFull() {
        var queue = PCMQueue(capacity: 100, channels: 2)
        var counter: Int16 = 0
        func append(frames: Int) {
            let chunk = (0..<(2 * frames)).map { _ -> Int16 in
                counter += 1; return counter
            }
            chunk.withUnsafeBufferPointer { queue.append($0) }
        }
        append(frames: 40)
        var output = [Int16](repeating: 0, count: 70)
        var expected: Int16 = 0
        for _ in 0..<50 {
            append(frames: 35)
            output.withUnsafeMutableBufferPointer { queue.read(frames: 35, into: $0) }
            for sample in output {
                expected += 1
                #expect(sample == expected)
            }
        }
        #expect(queue.count == 40)
        append(frames: 100)
        #expect(queue.count == 100, "only what fits is kept")
    }

    /// The level summed eight magnitudes at a time equals the mean of the magnitudes summed one
    /// by one, exactly: random and full-scale samples (−32 768, whose magnitude does not fit an
    /// `Int16`), mono and stereo, every length up to 40 frames and a whole queue, read from a
    /// queue whose live region starts anywhere.
    @Test func pcmQueueLevelIsTheMeanMagnitude() {
        var random = SplitMix64(seed: 0x1E7E1)
        for channels in [1, 2] {
            var queue = PCMQueue(capacity: 2000, channels: channels)
            var skip = [Int16](repeating: 0, count: 7 * channels)
            skip.withUnsafeMutableBufferPointer { queue.read(frames: 7, into: $0) }
            for round in 0..<4 {
                queue.removeAll()
                let lead = [Int16](repeating: 1, count: round * channels)
                lead.withUnsafeBufferPointer { queue.append($0) }
                let samples: [Int16] = (0..<(1990 * channels)).map { index in
                    round == 3 || index % 5 == 0 ? .min : Int16(truncatingIfNeeded: random.next())
                }
                samples.withUnsafeBufferPointer { queue.append($0) }
                for frames in Array(1...40) + [queue.count] {
                    let last = (lead + samples).suffix(frames * channels)
                    let expected = Double(last.reduce(0) { $0 + Int($1.magnitude) }) / Double(frames * channels)
                    #expect(queue.meanAbsoluteLevel(lastFrames: frames) == expected, "\(channels) channels, \(frames) frames")
                }
            }
        }
    }
}
