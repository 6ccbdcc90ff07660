import Codecs
import Foundation
import MediaSession
import Synchronization
import Testing

/// A memory endpoint whose `read` stops the thread that ticks it once, for `stallMilliseconds`
/// at its `stallOnRead`-th read: on a ``MediaRuntime`` that stalls the shared I/O thread, as a
/// page fault storm or a preempted host would.
final class StallingMemoryEndpoint: AudioEndpoint, @unchecked Sendable {
    // @unchecked: `reads` is touched by the ticking thread only; `stalled` is atomic.
    private let memory: MemoryAudioEndpoint
    private let stallOnRead: Int
    private let stallMilliseconds: Int
    private var reads = 0
    private let stallDone = Atomic<Bool>(false)

    /// Whether the stall is over.
    var stalled: Bool {
        stallDone.load(ordering: .acquiring)
    }

    init(source: [Int16], stallOnRead: Int, stallMilliseconds: Int) {
        memory = MemoryAudioEndpoint(source: source, recordingCapacitySamples: 0)
        self.stallOnRead = stallOnRead
        self.stallMilliseconds = stallMilliseconds
    }

    func open(capture: AudioFormat, playback: AudioFormat) throws(MediaSessionError) {
        try memory.open(capture: capture, playback: playback)
    }

    func read(into pcm: UnsafeMutableBufferPointer<Int16>) throws(MediaSessionError) {
        reads += 1
        if reads == stallOnRead {
            Thread.sleep(forTimeInterval: Double(stallMilliseconds) / 1000)
            stallDone.store(true, ordering: .releasing)
        }
        try memory.read(into: pcm)
    }

    func write(_ pcm: UnsafeBufferPointer<Int16>) throws(MediaSessionError) {
        try memory.write(pcm)
    }

    func close() {
        memory.close()
    }
}

extension LiveCalls {
    /// A real call on loopback whose caller, with an endpoint without a clock of its own, has
    /// its ticking thread stopped for a second mid-call: a server leg on a ``MediaRuntime``
    /// (its shared I/O thread stalls; the callee is a leg on another runtime) or a session on its
    /// own 10 ms timer. The timer catches up 40 ms and skips the rest; the caller's RTP
    /// timestamps skip those periods (seen on the wire, through a tap), with consecutive
    /// sequence numbers, and the callee's delay comes back at once. Before the skipped periods
    /// counted, the timestamps ran on as if no time had passed, and the callee held the stall
    /// as delay (measured: about 1000 ms more two seconds after it).
    @Suite struct StalledTickTests {
        @Test(arguments: [true, false])
        func aStalledTickSkipsItsMediaTimeInRTPTime(onRuntime: Bool) throws {
            let sampleRate = 8000
            let frameUnits = sampleRate / 50  // 20 ms of G.711
            let stallMilliseconds = 1000
            let tap = try RTPTap()
            defer { tap.stop() }
            let callerRuntime = try onRuntime ? MediaRuntime(configuration: MediaRuntimeConfiguration(ioThreadCount: 1)) : nil
            let calleeRuntime = try onRuntime ? MediaRuntime(configuration: MediaRuntimeConfiguration(ioThreadCount: 1)) : nil
            defer {
                callerRuntime?.shutdown()
                calleeRuntime?.shutdown()
            }
            let callerAudio = StallingMemoryEndpoint(
                source: TestSignal.speechLike(sampleRate: sampleRate, seconds: 10), stallOnRead: 350, stallMilliseconds: stallMilliseconds)
            // Each side sends to the address its SDP gave (the caller to the tap).
            let call = try LoopbackCall(codecs: [.pcmu], sampleRate: sampleRate, runtime: callerRuntime, calleeRuntime: calleeRuntime) {
                configuration in
                configuration.symmetricRTP = false
                configuration.audio = .endpoint(callerAudio)
            } adjustCallee: { configuration in
                configuration.audio = .endpoint(MemoryAudioEndpoint(source: [], recordingCapacitySamples: 0))
            } rewriteAnswer: {
                tap.rewrite(answer: $0)
            }
            defer { call.stop() }
            // 350 reads of 10 ms: the stall begins about 3.5 s into the call and takes a second.
            let delays = CalleeDelaysAroundStall(call, waitingUpTo: 4) { callerAudio.stalled }
            #expect(delays.stallSeen, "no stall")
            let statistics = call.caller.statistics
            let packets = tap.packets

            // Skipped: the stall's periods less the 40 ms the timer caught up and the late tick's
            // own (95 or 96 with one period per tick, seen; a runtime's wheel of 20 ms ticks may
            // leave one tick more, seen: 92), and what a loaded machine added.
            let skipped = statistics.audioPeriodsSkipped
            #expect((stallMilliseconds / 10 - 10...stallMilliseconds / 10 + 5).contains(skipped), "\(skipped) periods skipped")
            #expect(statistics.captureOverruns == 0 && statistics.captureFramesLost == 0, "counted as capture overruns")

            // On the wire: consecutive sequence numbers throughout, and the timestamps one frame
            // apart but where they skip the skipped periods, in whole frames.
            #expect(packets.count > 200)
            let wire = StalledSenderOnTheWire(packets, frameUnits: frameUnits, sampleRate: sampleRate)
            #expect(wire.sequenceNumbersConsecutive, "a gap in the sequence numbers")
            let skips = wire.timestampSkips
            let skippedFrames = skipped * sampleRate / 100
            #expect(skips.reduce(0, +) == (skippedFrames + frameUnits / 2) / frameUnits * frameUnits, "timestamp skips \(skips) for \(skipped) periods")
            #expect((skips.max() ?? 0) >= (stallMilliseconds - 100) * sampleRate / 1000, "timestamp skips \(skips)")

            // Media time kept: after the stall (the longest wait between two packets), packets
            // arrive as far behind their timestamps as before it (the median of a second's
            // packets each side, within a frame and a tick the timer did not catch up).
            #expect(wire.longestWaitSeconds > 0.9, "the longest wait between packets \(wire.longestWaitSeconds) s")
            let mediaTimeMoved = wire.mediaTimeMovedMilliseconds
            #expect(abs(mediaTimeMoved) <= 40, "the sender's media time moved \(mediaTimeMoved) ms against arrivals")

            // The callee's delay comes back to where it was within a couple of seconds of the
            // stall (a loaded machine may move it a frame or two; the stall held would be 1000 ms).
            print(
                "stalled tick (\(onRuntime ? "runtime leg" : "own timer")): \(skipped) periods skipped in a \(stallMilliseconds) ms stall, "
                    + "timestamps skipped \(skips), media time moved \(String(format: "%+.1f", mediaTimeMoved)) ms; "
                    + "callee delay before \(delays.before) ms, after \(delays.after) ms"
            )
            delays.expectCameBack(within: 50)
            #expect(call.callee.statistics.packetsLost == 0)
        }
    }
}
