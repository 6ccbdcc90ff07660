import Foundation
import MediaSession
import Testing

extension LiveCalls {
    /// A real call on loopback while the wall clock steps a second forward and back (the
    /// clock both sessions read, and the kernel's receive stamps with it): nothing a listener
    /// hears may change.
    @Suite struct WallClockStepTests {
        @Test func aOneSecondStepEachWayMidCallChangesNothingHeard() throws {
            let start = SystemWallClock().nanoseconds()
            let second: Int64 = 1_000_000_000
            let stepped = SteppedWallClock(stepNanoseconds: second, from: start + 5 * second / 2, until: start + 9 * second / 2)
            let call = try LoopbackCall(codecs: [.pcmu], sampleRate: 8000, sourceSeconds: 8) { configuration in
                configuration.wallClock = stepped
            }
            defer { call.stop() }
            func sleep(untilSecond seconds: Double) {
                let left = Double(start + Int64(seconds * 1e9) - SystemWallClock().nanoseconds()) / 1e9
                if left > 0 { Thread.sleep(forTimeInterval: left) }
            }
            sleep(untilSecond: 2.2)
            let before = call.callee.playoutStatistics
            sleep(untilSecond: 3.5)
            let during = call.callee.playoutStatistics
            sleep(untilSecond: 6.5)
            let after = call.callee.playoutStatistics
            for session in [call.caller, call.callee] {
                let statistics = session.statistics
                #expect(statistics.wallClockSteps == 2)
                #expect(statistics.packetsLost == 0)
                // Round trips span the steps: still on loopback's scale.
                let roundTrip = try #require(statistics.roundTripMilliseconds)
                #expect(roundTrip >= 0 && roundTrip < 100, "round trip \(roundTrip) ms")
            }
            let steps = call.calleeEvents.events.compactMap { event -> Double? in
                if case .wallClockStepped(let milliseconds) = event { milliseconds } else { nil }
            }
            #expect(steps.count == 2)
            #expect(steps.count == 2 && abs(steps[0] - 1000) < 5 && abs(steps[1] + 1000) < 5, "steps \(steps)")
            // Across the steps: no packet dropped, no restart, no delay jump. A mishandled step
            // makes a second of packets late (≈ 50 late, ≈ 8 000 samples concealed), moves the
            // delay by the step (1000 ms: read 1040 ms on the old wall-clock timing) or restarts
            // the stream. A loaded machine alone may still delay a packet or two and grow the
            // buffer a frame (seen: 10–20 ms concealed, a 10 ms move, beside a browser call and
            // builds), so the bounds sit between the two, far from the step's own scale.
            let hiccupLatePackets = 3
            let hiccupConcealedSamples = 320  // 40 ms at 8 kHz
            let stepMissed = 50.0
            #expect(after.packetsReceived > before.packetsReceived + 150)
            #expect(after.latePackets - before.latePackets <= hiccupLatePackets, "\(after.latePackets - before.latePackets) late")
            #expect(after.packetsDiscarded == before.packetsDiscarded)
            #expect(
                after.concealedSamples - before.concealedSamples <= hiccupConcealedSamples,
                "\(after.concealedSamples - before.concealedSamples) samples concealed")
            #expect(after.streamResets == before.streamResets)
            #expect(
                abs(during.currentDelayMilliseconds - before.currentDelayMilliseconds) < stepMissed,
                "delay \(before.currentDelayMilliseconds) → \(during.currentDelayMilliseconds) ms a second into the step")
            #expect(
                abs(after.currentDelayMilliseconds - before.currentDelayMilliseconds) < stepMissed,
                "delay \(before.currentDelayMilliseconds) → \(after.currentDelayMilliseconds) ms")
        }
    }
}
