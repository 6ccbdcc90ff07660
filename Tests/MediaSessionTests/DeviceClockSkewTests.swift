import Foundation
import MediaSession
import Testing

extension LiveCalls {
    /// A real call on loopback between two sound cards whose sample clocks run off the
    /// monotonic clock in opposite directions (``SkewedClockEndpoint``, timed on CLOCK_MONOTONIC
    /// as ALSA times a card): each session measures its card's rate, ticks at it, and its
    /// jitter buffer absorbs the drift against the other side's card by stretching, with no
    /// underrun, no overrun and no trend in the delay, through a 10 ms scheduling hiccup.
    ///
    /// By default 60 s at ±1500 ppm: the two cards drift 3 ms a second apart, as much in a minute
    /// as ±300 ppm cards do in five. (At ±3000 ppm the jitter buffer's reference, the fastest
    /// of its last 256 packets, lags the draining side by 30 ms: it conceals about 3 % of the
    /// audio and now and then stops following; that is the buffer's, not the clocks'.)
    /// `MEDIA_CLOCK_SKEW_SECONDS` and `MEDIA_CLOCK_SKEW_PPM` change both
    /// (`scripts/soak.sh --device-clock` runs 600 s at ±300 ppm).
    @Suite struct DeviceClockSkewTests {
        private static let environment = ProcessInfo.processInfo.environment
        private static let seconds = environment["MEDIA_CLOCK_SKEW_SECONDS"].flatMap(Int.init) ?? 60
        private static let skew = environment["MEDIA_CLOCK_SKEW_PPM"].flatMap(Double.init) ?? 1500

        @Test func skewedSoundCardsOnBothEndsPlayWithoutXrunsOrDelayTrend() throws {
            let source = Self.talkspurts(seconds: Self.seconds + 2)
            let slow = SkewedClockEndpoint(skewPartsPerMillion: -Self.skew, source: source)
            let fast = SkewedClockEndpoint(skewPartsPerMillion: Self.skew, source: source, stallOnRead: 500)
            let call = try LoopbackCall(codecs: [.pcmu], sampleRate: 8000) { configuration in
                configuration.audio = .endpoint(slow)
            } adjustCallee: { configuration in
                configuration.audio = .endpoint(fast)
            }
            defer { call.stop() }
            // Once a second, what each listener waits: the jitter buffer's delay and the card's
            // queue; and the part of it the buffer does not mean to have (its delay less its
            // target), which is where drift it did not absorb would show.
            var samples: [(seconds: Double, caller: (heard: Double, untracked: Double), callee: (heard: Double, untracked: Double))] = []
            func figures(_ session: MediaSession, _ endpoint: SkewedClockEndpoint) -> (heard: Double, untracked: Double) {
                let playout = session.playoutStatistics
                let queue = Double(endpoint.queuedFrames) / 8
                return (playout.currentDelayMilliseconds + queue, playout.currentDelayMilliseconds - playout.targetDelayMilliseconds + queue)
            }
            let started = Date()
            for second in 1...Self.seconds {
                Thread.sleep(until: started.addingTimeInterval(Double(second)))
                samples.append((Double(second), figures(call.caller, slow), figures(call.callee, fast)))
            }
            let settled = samples.filter { $0.seconds >= 10 }
            let sides = [
                ("caller", call.caller, slow, -Self.skew, settled.map { ($0.seconds, $0.caller) }),
                ("callee", call.callee, fast, Self.skew, settled.map { ($0.seconds, $0.callee) }),
            ]
            for (name, session, endpoint, configured, series) in sides {
                let statistics = session.statistics
                let playout = session.playoutStatistics
                let heardTrend = Self.trend(series.map { ($0.0, $0.1.heard) })
                let untrackedTrend = Self.trend(series.map { ($0.0, $0.1.untracked) })
                let measured = try #require(statistics.playbackClockSkewPartsPerMillion)
                print(
                    "\(name): card at \(configured) ppm measured \(String(format: "%.1f", measured)) ppm, underruns \(endpoint.underruns) "
                        + "(\(endpoint.underrunsOnTime) with the writer on time), overruns \(endpoint.overruns), late ticks \(statistics.lateAudioTicks), "
                        + "delay trend \(String(format: "%+.1f", heardTrend)) ms/min (off target \(String(format: "%+.1f", untrackedTrend))), "
                        + "stretched +\(playout.insertedSamples) −\(playout.removedSamples) samples, late \(playout.latePackets), "
                        + "concealed \(playout.concealedSamples) samples")
                #expect(abs(measured - configured) < 50, "\(name): measured \(measured) ppm for \(configured) ppm")
                #expect(statistics.playbackUnderruns == endpoint.underruns, "\(name)")
                // No underrun while the audio thread kept its beat (the others follow ticks the
                // machine delayed past the headroom: reported, with the late ticks).
                #expect(endpoint.underrunsOnTime == 0, "\(name)")
                #expect(abs(untrackedTrend) < Self.allowedTrend, "\(name): the delay moves \(untrackedTrend) ms a minute off target")
            }
        }

        /// The largest delay trend allowed, in milliseconds a minute: a tenth of what the two cards
        /// drift apart (36 ms a minute at ±300 ppm, 180 at ±1500), at least 5.
        private static var allowedTrend: Double {
            max(5, 0.1 * 2 * skew * 60 / 1000)
        }

        /// ``TestSignal/speechLike`` at 8 kHz in talkspurts of 2.2 s, each followed by a pause of
        /// 0.6 s of faint noise (about −62 dBFS, not digital silence), as read speech pauses
        /// every 2–3 s: the jitter buffer moves its delay in the pauses.
        private static func talkspurts(seconds: Int) -> [Int16] {
            let speech = TestSignal.speechLike(sampleRate: 8000, seconds: Double(seconds))
            var noise: UInt32 = 12345
            return speech.enumerated().map { index, sample in
                guard index % 22_400 >= 17_600 else { return sample }
                noise = noise &* 1_664_525 &+ 1_013_904_223
                return Int16(Int(noise >> 16) % 51 - 25)
            }
        }

        /// The least-squares slope of `points`, in milliseconds per minute.
        private static func trend(_ points: [(Double, Double)]) -> Double {
            let count = Double(points.count)
            let meanX = points.map(\.0).reduce(0, +) / count, meanY = points.map(\.1).reduce(0, +) / count
            let covariance = points.map { ($0.0 - meanX) * ($0.1 - meanY) }.reduce(0, +)
            let variance = points.map { ($0.0 - meanX) * ($0.0 - meanX) }.reduce(0, +)
            return variance > 0 ? covariance / variance * 60 : 0
        }
    }
}
