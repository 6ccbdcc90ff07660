import BenchmarkHarness
@_spi(Testing) import MediaSession
import RTP
import Testing
import TestSupport

/// What one frame costs on the send and receive paths once warmed up.
@Suite struct MediaSessionResourceTests {
    /// Encode, packetise, send, receive, check, record and buffer, then play 20 ms: no
    /// allocation per frame in a release build (`scripts/test.sh` runs it so). A debug build allocates once per packet in
    /// unspecialised library code (the RTP module's first-byte classifier, measured); the
    /// bound catches any per-packet copy on top.
    @Test(.countsAllocations) func aPlainRTPFrameAllocatesNothingAfterWarmUp() throws {
        let probe = try PipelineProbe(suite: nil)
        for _ in 0..<50 { probe.exchangeFrame() }
        let frames = 500
        let (allocations, received) = AllocationCounter.counting {
            var received = 0
            for _ in 0..<frames { received = probe.exchangeFrame() }
            return received
        }
        #expect(received >= 540)
        #if DEBUG
            #expect(allocations <= UInt64(frames), "\(allocations) allocations for \(frames) frames")
        #else
            #expect(allocations == 0, "\(allocations) allocations for \(frames) frames")
        #endif
    }

    /// The receive path alone, per received packet (recvmmsg, classify, parse, statistics,
    /// quality monitor, jitter buffer insert, the locks between them): no allocation in a
    /// release build. Run it there: `swift test -c release --filter MediaSessionResourceTests`.
    /// Packets are sent (and played) outside the count, 16 at a time, so one count covers
    /// batched receives as the I/O thread does them.
    @Test func aReceivedPacketAllocatesNothingAfterWarmUp() throws {
        let probe = try PipelineProbe(suite: nil)
        for _ in 0..<50 { probe.exchangeFrame() }
        var allocations: UInt64 = 0
        var received = 0
        for _ in 0..<32 {
            for _ in 0..<16 { probe.sendFrame() }
            let (counted, batch) = AllocationCounter.counting { probe.receiveWaiting() }
            allocations += counted
            received += batch
            for _ in 0..<16 { probe.playFrame() }
        }
        #expect(received == 512)
        #if DEBUG
            #expect(allocations <= UInt64(received), "\(allocations) allocations for \(received) packets")
        #else
            #expect(allocations == 0, "\(allocations) allocations for \(received) packets")
        #endif
    }

    /// With SRTP the frames still go through; what allocates then is libsrtp over NSS, which
    /// builds a cipher context per packet (SWIFT-NOTES.md), not the session.
    @Test(arguments: [SRTPCryptoSuite.aes128CounterModeHMACSHA1Tag80, .aeadAES128GCM])
    func srtpFramesGoThrough(suite: SRTPCryptoSuite) throws {
        let probe = try PipelineProbe(suite: suite)
        var received = 0
        for _ in 0..<100 { received = probe.exchangeFrame() }
        #expect(received == 100)
    }

    /// A session let go without ever starting a call finishes its streams, so a task iterating
    /// them ends (a SIP call that failed before media forwarded them and waited for ever:
    /// AddressSanitizer's leak report).
    @Test func aSessionThatNeverStartedFinishesItsStreamsWhenLetGo() async throws {
        var session: MediaSession? = try MediaSession(
            configuration: MediaSessionConfiguration(
                localAddress: .loopbackIPv4(), audio: .endpoint(MemoryAudioEndpoint(source: [], recordingCapacitySamples: 0))))
        let events = try #require(session).events
        let reports = try #require(session).qualityReports
        let ended = Task {
            for await _ in events {}
            for await _ in reports {}
            // Cancelled by the deadline below, the loops end too: that is no finish.
            return !Task.isCancelled
        }
        session = nil
        let deadline = Task {
            try await Task.sleep(for: .seconds(5))
            ended.cancel()
        }
        #expect(await ended.value, "the streams of a released session never finished")
        deadline.cancel()
    }
}
