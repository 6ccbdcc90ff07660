import Foundation
import MediaSession
import RTP
import TestSupport
import Testing

extension LiveCalls {
    /// Hostile datagrams sprayed at a live call: each one is counted once and dropped, and the
    /// call goes on as if nothing happened.
    @Suite struct MediaSessionSprayTests {
        @Test func thousandForgedDatagramsAreCountedAndDroppedWhileTheCallGoesOn() throws {
            // No latching on the callee, so the forgeries reach the SRTP and SSRC checks.
            let call = try LoopbackCall(
                codecs: [.pcmu], sampleRate: 8000, sourceSeconds: 1.5, srtp: [.aes128CounterModeHMACSHA1Tag80],
                adjustCallee: { $0.symmetricRTP = false }
            )
            #expect(waitUntil(seconds: 1) { call.callee.statistics.rtpPacketsReceived > 5 })
            let before = call.callee.statistics
            let attacker = try UDPSocket(binding: .loopbackIPv4())
            let target = call.callee.localAddress
            var random = SplitMix64(seed: 7)
            // Someone holding the caller's key (so that replays are authentic), on other SSRCs.
            let callerKey = try #require(call.callerMedia.crypto).local.masterKey
            var forger = try SRTPOutboundSession(key: callerKey)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1500, alignment: 16)
            defer { buffer.deallocate() }
            func send(_ length: Int) throws {
                try attacker.send(UnsafeRawBufferPointer(rebasing: buffer[..<length]), to: target)
            }
            func rtp(ssrc: UInt32, sequence: UInt16) throws -> Int {
                var builder = try RTPPacketBuilder(
                    into: buffer,
                    header: RTPHeaderFields(
                        payloadType: 0, sequenceNumber: SequenceNumber(sequence), timestamp: RTPTimestamp(UInt32(sequence) * 160), ssrc: ssrc)
                )
                let payload = try builder.payloadSpace()
                for index in 0..<160 { payload[index] = UInt8.random(in: 0...255, using: &random) }
                try builder.commitPayload(byteCount: 160)
                return try builder.finish()
            }
            for _ in 0..<250 {  // random bytes
                let length = Int.random(in: 1...200, using: &random)
                for index in 0..<length { buffer[index] = UInt8.random(in: 0...255, using: &random) }
                try send(length)
            }
            for index in 0..<250 {  // RTP with a wrong SSRC and a made-up tag
                let length = try rtp(ssrc: UInt32.random(in: 1...UInt32.max, using: &random), sequence: UInt16(index))
                try send(length + 10)
            }
            for index in 0..<250 {  // properly protected, then the tag damaged
                var length = try rtp(ssrc: 0x0BAD_0BAD, sequence: UInt16(index))
                length = try forger.protectRTP(in: buffer, length: length)
                buffer[length - 1] ^= 0x5A
                try send(length)
            }
            // One authentic packet of a stranger's SSRC (dropped by the SSRC check), then 249 replays of it.
            var length = try rtp(ssrc: 0x5EED_5EED, sequence: 1000)
            length = try forger.protectRTP(in: buffer, length: length)
            for _ in 0..<250 {
                try send(length)
                Thread.sleep(forTimeInterval: 0.0002)
            }
            #expect(waitUntil(seconds: 1) { call.callee.statistics.totalDropped - before.totalDropped >= 1000 })
            let during = call.callee.statistics
            // Half a second more, and at least a second of audio played (the buffer starts
            // 250 ms late), so the audio compared below is there.
            Thread.sleep(forTimeInterval: 0.5)
            #expect(waitUntil(seconds: 2) { call.calleeAudio.recorded.count >= 8000 })
            call.stop()
            let after = call.callee.statistics
            #expect(after.totalDropped - before.totalDropped == 1000)
            #expect(after.authenticationFailures - before.authenticationFailures >= 500)
            #expect(after.replaysDropped - before.replaysDropped == 249)
            #expect(after.foreignSSRCDropped - before.foreignSSRCDropped == 1)
            // The call went on: packets kept coming and the audio is intact.
            #expect(after.rtpPacketsReceived >= during.rtpPacketsReceived + 20)
            let correlation = TestSignal.correlation(sent: call.source, received: call.calleeAudio.recorded, sampleRate: 8000)
            #expect(correlation > 0.9, "correlation \(correlation)")
            #expect(waitUntil(seconds: 1) { call.calleeEvents.events.contains { if case .srtpFailure = $0 { true } else { false } } })
            #expect(!call.calleeEvents.events.contains { if case .remoteSSRCChanged(.some, _) = $0 { true } else { false } })
        }

        @Test func aNewSourceTakesOverOnlyAfterThreePacketsInSequence() throws {
            let call = try LoopbackCall(codecs: [.pcmu], sampleRate: 8000, sourceSeconds: 3, adjustCallee: { $0.symmetricRTP = false })
            #expect(waitUntil(seconds: 1) { call.callee.statistics.rtpPacketsReceived > 5 })
            let attacker = try UDPSocket(binding: .loopbackIPv4())
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 200, alignment: 16)
            buffer.initializeMemory(as: UInt8.self, repeating: 0xFF)
            defer { buffer.deallocate() }
            func send(sequence: UInt16) throws {
                let header = RTPHeaderFields(
                    payloadType: 0, sequenceNumber: SequenceNumber(sequence), timestamp: RTPTimestamp(UInt32(sequence) * 160), ssrc: 0xABCD
                )
                var builder = try RTPPacketBuilder(into: buffer, header: header)
                try builder.commitPayload(byteCount: 160)
                let length = try builder.finish()
                try attacker.send(UnsafeRawBufferPointer(rebasing: buffer[..<length]), to: call.callee.localAddress)
            }
            // Two packets out of sequence are not enough; three in sequence are.
            for sequence: UInt16 in [10, 20, 21, 22] { try send(sequence: sequence) }
            #expect(
                waitUntil(seconds: 1) {
                    call.calleeEvents.events.contains { if case .remoteSSRCChanged(.some, 0xABCD) = $0 { true } else { false } }
                })
            // The caller's stream, still going, wins it back the same way.
            #expect(
                waitUntil(seconds: 1) {
                    call.calleeEvents.events.contains { if case .remoteSSRCChanged(0xABCD, _) = $0 { true } else { false } }
                })
            call.stop()
            #expect(call.callee.statistics.foreignSSRCDropped >= 4)
        }
    }
}
