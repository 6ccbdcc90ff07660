import Foundation
import MediaSession
import Testing

extension LiveCalls {
    /// The transport choices of a call: RTCP on its own port, IPv6, symmetric RTP.
    @Suite struct MediaSessionTransportTests {
        @Test func rtcpOnItsOwnPort() throws {
            let call = try LoopbackCall(codecs: [.pcmu], sampleRate: 8000) { $0.rtcpMux = false }
            #expect(!call.callerMedia.rtcpMux)
            #expect(call.callerMedia.remoteRTCPPort == call.callerMedia.remoteRTPPort + 1)
            #expect(waitUntil(seconds: 2) { call.caller.statistics.rtcpPacketsReceived >= 1 && call.callee.statistics.rtcpPacketsReceived >= 1 })
            Thread.sleep(forTimeInterval: 1.2)
            call.stop()
            let correlation = TestSignal.correlation(sent: call.source, received: call.calleeAudio.recorded, sampleRate: 8000)
            #expect(correlation > 0.9, "correlation \(correlation)")
        }

        @Test func callOverIPv6() throws {
            let call = try LoopbackCall(codecs: [.pcma], sampleRate: 8000) { $0.localAddress = .loopbackIPv6() }
            #expect(call.callerMedia.remoteAddress == "::1")
            Thread.sleep(forTimeInterval: 1.7)
            call.stop()
            let correlation = TestSignal.correlation(sent: call.source, received: call.calleeAudio.recorded, sampleRate: 8000)
            #expect(correlation > 0.9, "correlation \(correlation)")
        }

        @Test func symmetricRTPAnswersWhereThePacketsComeFrom() throws {
            // The callee was told a wrong port (a NAT rewrote it); it latches onto the caller's source.
            let call = try LoopbackCall(codecs: [.pcmu], sampleRate: 8000, sourceSeconds: 3) { _ in
            } adjustCalleeMedia: { media in
                media.remoteRTPPort = 9
            }
            #expect(waitUntil(seconds: 1) { call.caller.statistics.rtpPacketsReceived > 10 })
            call.stop()
            #expect(waitUntil(seconds: 1) { call.calleeEvents.events.contains(.remoteAddressLatched(call.caller.localAddress)) })
        }
    }
}
