import Foundation
import MediaSession
import RTP
import Testing

extension LiveCalls {
    /// The caller's Opus FEC follows the loss the callee reports in RTCP: the caller's
    /// ``MediaSessionStatistics/forwardErrorCorrectionLossPercent`` shows the setting.
    @Suite struct LossAdaptationCallTests {
        /// Sends the caller an RTCP receiver report on its stream with `fractionLost` (in 1/256),
        /// from a socket of its own, as if the callee had lost that much.
        static func reportLoss(_ fractionLost: UInt8, to call: LoopbackCall) throws {
            let peer = try UDPSocket(binding: .loopbackIPv4())
            var bytes = [UInt8](repeating: 0, count: 256)
            let length = try bytes.withUnsafeMutableBytes { buffer in
                var builder = RTCPCompoundBuilder(into: buffer)
                let block = RTCPReportBlock(
                    ssrc: call.caller.configuration.ssrc, fractionLost: fractionLost, cumulativeLost: 1, extendedHighestSequence: 1,
                    jitter: 0, lastSenderReport: 0, delaySinceLastSenderReport: 0
                )
                try builder.addReceiverReport(ssrc: call.callee.configuration.ssrc, reportBlocks: [block])
                try builder.addSourceDescription([
                    RTCPSourceDescriptionChunk(ssrc: call.callee.configuration.ssrc, items: [RTCPSourceDescriptionItem(.cname, "peer")])
                ])
                return try builder.finish()
            }
            _ = try bytes.withUnsafeBytes { try peer.send(UnsafeRawBufferPointer(rebasing: $0[..<length]), to: call.caller.localAddress) }
        }

        @Test func theExpectedLossRisesWithAReportOfLossAndFallsWithCleanReports() throws {
            // Almost no smoothing (a report even one frame after the last counts fully), so that
            // each report shows at once.
            let call = try LoopbackCall(codecs: [.opus], sampleRate: 48_000, sourceSeconds: 6) {
                $0.lossAdaptation = LossAdaptation(initialPercent: 4, smoothingSeconds: 0.001, marginPercent: 1, maximumPercent: 25)
            }
            defer { call.stop() }
            #expect(waitUntil(seconds: 1) { call.caller.statistics.forwardErrorCorrectionLossPercent == 5 }, "the initial guess")
            // The callee's reports (nothing lost on loopback) end the FEC.
            #expect(waitUntil(seconds: 3) { call.caller.statistics.forwardErrorCorrectionLossPercent == 0 })
            try Self.reportLoss(51, to: call)  // 19.9 %, plus the 1-point margin
            #expect(waitUntil(seconds: 1) { call.caller.statistics.forwardErrorCorrectionLossPercent == 21 })
            #expect(waitUntil(seconds: 3) { call.caller.statistics.forwardErrorCorrectionLossPercent == 0 })
            #expect(call.caller.statistics.rtcpPacketsReceived >= 3)
        }

        @Test func withoutAdaptationTheSDPDefaultHolds() throws {
            let call = try LoopbackCall(codecs: [.opus], sampleRate: 48_000) { $0.lossAdaptation = nil }
            defer { call.stop() }
            #expect(waitUntil(seconds: 3) { call.caller.statistics.rtcpPacketsReceived >= 1 })
            try Self.reportLoss(51, to: call)
            #expect(waitUntil(seconds: 1) { call.caller.statistics.rtcpPacketsReceived >= 2 })
            #expect(call.caller.statistics.forwardErrorCorrectionLossPercent == 10)
        }

        @Test func aCodecWithoutFECReportsNone() throws {
            let call = try LoopbackCall(codecs: [.pcmu], sampleRate: 8000)
            defer { call.stop() }
            #expect(waitUntil(seconds: 1) { call.caller.statistics.rtpPacketsSent > 5 })
            #expect(call.caller.statistics.forwardErrorCorrectionLossPercent == nil)
        }
    }
}
