import Foundation
import MediaSession
import RTP
import Testing

extension LiveCalls {
    /// Calls carried by a ``MediaRuntime``: every session received and ticked by one of the
    /// runtime's I/O threads, none with a thread of its own.
    @Suite struct MediaRuntimeCallTests {
        /// Several SRTP calls at once on one runtime of two I/O threads: each hears what its
        /// peer sent (the same correlation bound as a softphone call), DTMF arrives, RTCP flows.
        @Test func manyCallsShareTheClockAndTheIOThreads() throws {
            let runtime = try MediaRuntime(configuration: MediaRuntimeConfiguration(ioThreadCount: 2))
            defer { runtime.shutdown() }
            #expect(runtime.threadCount == 2)
            let calls = try (0..<4).map { _ in
                try LoopbackCall(codecs: [.pcmu], sampleRate: 8000, srtp: [.aes128CounterModeHMACSHA1Tag80], runtime: runtime)
            }
            #expect(runtime.sessionCount == 8)
            // From the callee, whose microphone is silent: the digits take no speech out of the check.
            try calls[0].callee.sendDTMF("7#")
            Thread.sleep(forTimeInterval: 1.7)
            for call in calls { call.stop() }
            // A stopped session's last tick sends the BYE; the clock drops it right after.
            #expect(waitUntil(seconds: 1) { runtime.sessionCount == 0 }, "stopped sessions leave the clock")
            for call in calls {
                let correlation = TestSignal.correlation(sent: call.source, received: call.calleeAudio.recorded, sampleRate: 8000)
                #expect(correlation > 0.9, "correlation \(correlation)")
                #expect(call.callee.statistics.rtpPacketsReceived >= 70)
                #expect(call.callee.statistics.authenticationFailures == 0)
                #expect(call.callee.statistics.totalDropped == 0)
                #expect(call.caller.statistics.rtcpPacketsReceived >= 1)
                #expect(call.callee.statistics.rtcpPacketsReceived >= 1)
            }
            let digits = calls[0].callerEvents.events.compactMap { event -> Character? in
                if case let .dtmfReceived(digit) = event { digit } else { nil }
            }
            #expect(String(digits) == "7#")
        }

        /// A session still running when the runtime shuts down ends as if stopped: its peer
        /// hears the BYE, and `stop()` returns at once.
        @Test func shuttingTheRuntimeDownEndsRunningCalls() throws {
            let runtime = try MediaRuntime(configuration: MediaRuntimeConfiguration(ioThreadCount: 1))
            let peer = try MediaRuntime(configuration: MediaRuntimeConfiguration(ioThreadCount: 1))
            defer { peer.shutdown() }
            let leg = try MediaSession(
                configuration: .serverLeg(audio: .endpoint(MemoryAudioEndpoint(source: [], recordingCapacitySamples: 0))), runtime: runtime)
            let other = try MediaSession(
                configuration: .serverLeg(audio: .endpoint(MemoryAudioEndpoint(source: [], recordingCapacitySamples: 0))), runtime: peer)
            let offer = try SessionDescription(parsing: MediaNegotiation.offer(leg.localCapabilities).text)
            let (answer, otherMedia) = try MediaNegotiation.answer(to: offer, with: other.localCapabilities)
            let legMedia = try MediaNegotiation.apply(answer: SessionDescription(parsing: answer.text), toOfferFrom: leg.localCapabilities)
            let otherEvents = EventRecorder(other.events)
            try other.start(negotiated: otherMedia)
            try leg.start(negotiated: legMedia)
            #expect(waitUntil(seconds: 2) { other.statistics.rtpPacketsReceived > 5 })
            runtime.shutdown()
            leg.stop()
            #expect(
                waitUntil(seconds: 2) {
                    otherEvents.events.contains { if case .remoteGoodbye = $0 { true } else { false } }
                })
            other.stop()
        }
    }
}
