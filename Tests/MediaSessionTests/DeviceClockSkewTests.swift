import BenchmarkHarness
import Foundation
import MediaSession
import Testing

extension LiveCalls {
    /// A real call on loopback between two sound cards whose sample clocks run off the
    /// monotonic clock in opposite directions (``SkewedClockEndpoint``, timed on CLOCK_MONOTONIC
    /// as ALSA times a card): each session measures its card's rate, ticks at it, and its
    /// jitter buffer absorbs the drift against the other side's card by stretching, through a
    /// 10 ms scheduling hiccup. Two verdicts, kept apart: drift (the skew measured, no trend in
    /// the delay the call does not mean to have) and scheduling (no underrun with the audio
    /// thread on schedule; those after a wake-up later than the headroom are the machine's,
    /// reported with their count, the late ticks and the headroom they raised).
    ///
    /// By default 60 s at ±3000 ppm: the two cards drift 6 ms a second apart, as much in a minute
    /// as ±300 ppm cards do in ten. `MEDIA_CLOCK_SKEW_SECONDS` and `MEDIA_CLOCK_SKEW_PPM` change
    /// both (`scripts/soak.sh --device-clock` runs 600 s at ±300 ppm). With the pacer's
    /// correction off, 120 s at ±300 ppm fails the drift verdict on both sides (the delay off
    /// target moving +9.8 and +10.0 ms a minute, 5 allowed).
    @Suite struct DeviceClockSkewTests {
        private static let environment = ProcessInfo.processInfo.environment
        private static let seconds = environment["MEDIA_CLOCK_SKEW_SECONDS"].flatMap(Int.init) ?? 60
        private static let skew = environment["MEDIA_CLOCK_SKEW_PPM"].flatMap(Double.init) ?? 3000

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
            // queue; and the part of it the call does not mean to have (the buffer's delay less
            // its target and what it holds against the drift it measured, the queue less the
            // pacer's headroom), which is where drift it did not absorb would show; and the
            // card's underruns so far.
            typealias Figures = (heard: Double, untracked: Double, underruns: Int)
            var samples: [(seconds: Double, caller: Figures, callee: Figures)] = []
            func figures(_ session: MediaSession, _ endpoint: SkewedClockEndpoint) -> Figures {
                let playout = session.playoutStatistics
                let queue = Double(endpoint.queuedFrames) / 8
                let headroom = session.statistics.playbackHeadroomMilliseconds ?? 0
                let meant = playout.targetDelayMilliseconds + playout.driftAnticipationMilliseconds + headroom
                return (playout.currentDelayMilliseconds + queue, playout.currentDelayMilliseconds + queue - meant, endpoint.underruns)
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
                let byMinute = stride(from: 0, to: series.count, by: 60).map { start in
                    Statistics.median(series[start..<min(start + 60, series.count)].map { $0.1.untracked }) ?? 0
                }
                let onSchedule = statistics.playbackUnderruns - statistics.playbackUnderrunsAfterLateWakeUps
                print(
                    "\(name): card at \(configured) ppm measured \(String(format: "%.1f", measured)) ppm | drift: delay trend "
                        + "\(String(format: "%+.1f", heardTrend)) ms/min, off target \(String(format: "%+.1f", untrackedTrend)) "
                        + "(allowed ±\(String(format: "%.0f", Self.allowedTrend))), stretched +\(playout.insertedSamples) −\(playout.removedSamples) samples, "
                        + "held against the drift \(String(format: "%.1f", playout.driftAnticipationMilliseconds)) ms, "
                        + "late packets \(playout.latePackets), concealed \(playout.concealedSamples) samples | scheduling: underruns \(endpoint.underruns) "
                        + "(\(statistics.playbackUnderrunsAfterLateWakeUps) after a wake-up later than the headroom, \(onSchedule) on schedule), "
                        + "late ticks \(statistics.lateAudioTicks), headroom now \(String(format: "%.0f", statistics.playbackHeadroomMilliseconds ?? 0)) ms, "
                        + "capture overruns \(endpoint.overruns) | off target by minute (median, ms): "
                        + byMinute.map { String(format: "%+.1f", $0) }.joined(separator: " "))
                #expect(abs(measured - configured) < 50, "\(name): measured \(measured) ppm for \(configured) ppm")
                // The session has seen every underrun of the card up to its last tick (the card
                // may have run dry since, while the test was reading).
                let seenBySecondLast = samples.dropLast().last.map { name == "caller" ? $0.caller.underruns : $0.callee.underruns } ?? 0
                #expect((seenBySecondLast...endpoint.underruns).contains(statistics.playbackUnderruns), "\(name)")
                // Underruns after the machine woke the audio thread later than its headroom
                // covers are the machine's (reported above); one on schedule is the pacing's.
                #expect(onSchedule == 0, "\(name): \(onSchedule) underruns with the audio thread on schedule")
                #expect(abs(untrackedTrend) < Self.allowedTrend, "\(name): drift not absorbed: the delay moves \(untrackedTrend) ms a minute off target")
            }
        }

        /// The largest delay trend allowed, in milliseconds a minute: a tenth of what the two cards
        /// drift apart (36 ms a minute at ±300 ppm: 3.6, so 5; 360 at ±3000: 36), at least 5.
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

        /// The slope of `points` (Theil–Sen: the median of the slopes between every two of
        /// them), in milliseconds per minute. Drift not absorbed moves every point a little;
        /// the machine stopping the call now and then moves a few by a step, which a
        /// least-squares line would read as a trend.
        private static func trend(_ points: [(Double, Double)]) -> Double {
            var slopes: [Double] = []
            slopes.reserveCapacity(points.count * points.count / 2)
            for (index, first) in points.enumerated() {
                for second in points[(index + 1)...] where second.0 > first.0 {
                    slopes.append((second.1 - first.1) / (second.0 - first.0))
                }
            }
            return (Statistics.median(slopes) ?? 0) * 60
        }
    }
}
