import Foundation
import MediaSession
import RTP
import Testing

extension LiveCalls {
    /// Two sessions talking over loopback UDP with in-memory audio.
    @Suite struct MediaSessionCallTests {
        // Measured 0.9999 (G.711) and 0.95 (Opus) on an idle machine; the margins leave room for the
        // jitter buffer to time-stretch inside the window on a loaded one (ThreadSanitizer: 0.949).
        @Test(arguments: [(SDPCodec.pcmu, 8000, 0.9), (SDPCodec.pcma, 8000, 0.9), (SDPCodec.opus, 48000, 0.8)])
        func receivedAudioMatchesWhatWasSent(codec: SDPCodec, sampleRate: Int, minimumCorrelation: Double) throws {
            let call = try LoopbackCall(codecs: [codec], sampleRate: sampleRate)
            Thread.sleep(forTimeInterval: 1.7)
            call.stop()
            #expect(call.callerMedia.sendCodec.map.encodingName == codec.map.encodingName)
            #expect(call.callerAudio.capturedSampleCount == call.source.count)
            let correlation = TestSignal.correlation(sent: call.source, received: call.calleeAudio.recorded, sampleRate: sampleRate)
            #expect(correlation > minimumCorrelation, "correlation \(correlation)")
            let statistics = call.callee.statistics
            #expect(statistics.rtpPacketsReceived >= 70)
            #expect(statistics.totalDropped == 0)
        }

        @Test(arguments: [SRTPCryptoSuite.aes128CounterModeHMACSHA1Tag80, .aeadAES128GCM])
        func audioFlowsThroughSRTP(suite: SRTPCryptoSuite) throws {
            let call = try LoopbackCall(codecs: [.pcmu], sampleRate: 8000, srtp: [suite])
            #expect(call.callerMedia.crypto?.suite == suite)
            Thread.sleep(forTimeInterval: 1.7)
            call.stop()
            let correlation = TestSignal.correlation(sent: call.source, received: call.calleeAudio.recorded, sampleRate: 8000)
            #expect(correlation > 0.9, "correlation \(correlation)")
            #expect(call.callee.statistics.authenticationFailures == 0)
            #expect(call.callee.statistics.rtpPacketsReceived >= 70)
            // SRTCP too: both ends received reports, and the round trip was measured.
            #expect(call.caller.statistics.rtcpPacketsReceived >= 1)
            #expect(call.callee.statistics.rtcpPacketsReceived >= 1)
        }

        @Test func dtmfDigitsArriveExactlyOnceEach() throws {
            let call = try LoopbackCall(codecs: [.pcmu], sampleRate: 8000)
            try call.caller.sendDTMF("123#")
            #expect(throws: MediaSessionError.self) { try call.caller.sendDTMF("12x") }
            let digits = {
                call.calleeEvents.events.compactMap { event -> Character? in
                    if case let .dtmfReceived(digit) = event { digit } else { nil }
                }
            }
            waitUntil(seconds: 10) { digits().count >= 4 }  // returns as soon as all four are in
            Thread.sleep(forTimeInterval: 0.2)  // any duplicate would have arrived by now
            call.stop()
            #expect(String(digits()) == "123#")
        }

        @Test func holdStopsMediaBothWaysAndResumeRestoresIt() throws {
            let call = try LoopbackCall(codecs: [.pcmu], sampleRate: 8000, sourceSeconds: 5)
            #expect(waitUntil(seconds: 1) { call.callee.statistics.rtpPacketsReceived > 10 && call.caller.statistics.rtpPacketsReceived > 10 })
            // The caller holds (and would offer sendonly); the callee applies the answer's direction.
            call.caller.hold()
            call.callee.setDirection(.receiveOnly)
            Thread.sleep(forTimeInterval: 0.02 + 0.03)  // one packet time, plus a tick of slack
            let heldCaller = call.caller.statistics, heldCallee = call.callee.statistics
            Thread.sleep(forTimeInterval: 0.3)
            #expect(call.caller.statistics.rtpPacketsSent == heldCaller.rtpPacketsSent)
            #expect(call.callee.statistics.rtpPacketsSent == heldCallee.rtpPacketsSent)
            #expect(call.callee.statistics.rtpPacketsReceived == heldCallee.rtpPacketsReceived)
            call.caller.resume()
            call.callee.setDirection(.sendReceive)
            #expect(
                waitUntil(seconds: 0.5) {
                    call.callee.statistics.rtpPacketsReceived >= heldCallee.rtpPacketsReceived + 10
                        && call.caller.statistics.rtpPacketsReceived >= heldCaller.rtpPacketsReceived + 10
                })
            call.stop()
        }

        @Test(arguments: [MuteBehaviour.sendNothing, .comfortNoise])
        func muteSendsNoSpeech(behaviour: MuteBehaviour) throws {
            let call = try LoopbackCall(codecs: [.pcmu], sampleRate: 8000, sourceSeconds: 5) { $0.muteBehaviour = behaviour }
            #expect(waitUntil(seconds: 1) { call.callee.statistics.rtpPacketsReceived > 10 })
            call.caller.mute()
            Thread.sleep(forTimeInterval: 0.05)
            let muted = call.caller.statistics
            Thread.sleep(forTimeInterval: 0.6)
            let later = call.caller.statistics
            // At most the comfort-noise packet after the snapshot; RTCP goes on.
            #expect(later.rtpPacketsSent - muted.rtpPacketsSent <= (behaviour == .comfortNoise ? 1 : 0))
            #expect(later.rtcpPacketsSent > muted.rtcpPacketsSent)
            call.caller.unmute()
            #expect(waitUntil(seconds: 0.5) { call.caller.statistics.rtpPacketsSent >= later.rtpPacketsSent + 10 })
            call.stop()
        }

        @Test func deadPeerRaisesNoMedia() throws {
            let audio = MemoryAudioEndpoint(source: [], recordingCapacitySamples: 0)
            let configuration = MediaSessionConfiguration(
                localAddress: .loopbackIPv4(), codecs: [.pcmu], echoCancellation: false, noiseSuppression: false, audio: .endpoint(audio),
                noMediaTimeoutSeconds: 0.4
            )
            let session = try MediaSession(configuration: configuration)
            // The peer negotiated, then died: nothing ever comes from it.
            let peer = try MediaSession(configuration: configuration)
            let offer = MediaNegotiation.offer(session.localCapabilities)
            let (answer, _) = try MediaNegotiation.answer(to: offer, with: peer.localCapabilities)
            let media = try MediaNegotiation.apply(answer: answer, toOfferFrom: session.localCapabilities)
            let events = EventRecorder(session.events)
            try session.start(negotiated: media)
            let raised = waitUntil(seconds: 2) { events.events.contains { if case .noMedia = $0 { true } else { false } } }
            session.stop()
            #expect(raised)
        }

        @Test func rtcpMeasuresTheRoundTripReportsQualityAndCarriesTheGoodbye() throws {
            let call = try LoopbackCall(codecs: [.pcmu], sampleRate: 8000, sourceSeconds: 5)
            let reports = StreamRecorder(call.callee.qualityReports)
            let callerReports = StreamRecorder(call.caller.qualityReports)
            #expect(waitUntil(seconds: 3) { call.caller.statistics.roundTripMilliseconds != nil })
            let roundTrip = try #require(call.caller.statistics.roundTripMilliseconds)
            #expect(roundTrip >= 0 && roundTrip < 50, "loopback round trip \(roundTrip) ms")
            #expect(waitUntil(seconds: 1.5) { !reports.events.isEmpty })
            let report = try #require(reports.events.first)
            #expect(report.session.rtpPacketsReceived > 0)
            #expect(report.jitterBuffer.packetsReceived > 0)
            // A clean loopback call in G.711 rates near the codec's ceiling (R ≈ 93, MOS ≈ 4.4).
            #expect(report.quality.codec == "PCMU")
            let score = try #require(report.quality.meanOpinionScore)
            #expect(score > 4.0, "MOS \(score)")
            // RFC 3611 VoIP metrics went back in RTCP XR: the caller's monitor shows what the
            // callee reported about the caller's stream.
            #expect(waitUntil(seconds: 4) { callerReports.events.contains { $0.quality.remote?.discardPercent != nil } })
            call.caller.stop()
            #expect(
                waitUntil(seconds: 1) {
                    call.calleeEvents.events.contains { if case .remoteGoodbye = $0 { true } else { false } }
                })
            call.callee.stop()
        }

        @Test func echoCancellationAndDenoisingRunOnTheSendPath() throws {
            // With a silent far end the canceller has no echo to remove: speech passes intact.
            let cancelled = try LoopbackCall(codecs: [.pcmu], sampleRate: 8000) { $0.echoCancellation = true }
            Thread.sleep(forTimeInterval: 1.7)
            cancelled.stop()
            let correlation = TestSignal.correlation(sent: cancelled.source, received: cancelled.calleeAudio.recorded, sampleRate: 8000)
            #expect(correlation > 0.9, "correlation \(correlation)")
            // The denoiser changes the waveform, but the speech still gets through.
            let denoised = try LoopbackCall(codecs: [.pcmu], sampleRate: 8000) { $0.noiseSuppression = true }
            Thread.sleep(forTimeInterval: 1.7)
            denoised.stop()
            let loud = denoised.calleeAudio.recorded.filter { abs(Int($0)) > 1000 }.count
            #expect(loud > 2000, "\(loud) loud samples")
        }
    }
}
