import Foundation
import MediaSession
import RTP
import TestSupport
import Testing

/// The session's side of negotiation: `o=` versions, the default address, and live calls in
/// which a peer declines rtcp-mux, uses the `_32` suites, or sends keepalives and replays.
@Suite struct MediaSessionNegotiationStateTests {
    private static func session() throws -> MediaSession {
        try MediaSession(
            configuration: MediaSessionConfiguration(
                localAddress: .loopbackIPv4(), codecs: [.pcmu], audio: .endpoint(MemoryAudioEndpoint(source: [], recordingCapacitySamples: 0))
            ))
    }

    @Test func originVersionIncreasesWithEachDescription() throws {
        let alice = try Self.session()
        let bob = try Self.session()
        let first = alice.makeOffer()
        let (answer, _) = try bob.answer(first)
        _ = try alice.apply(answer: answer)
        let hold = alice.makeOffer(direction: .sendOnly)
        let (holdAnswer, held) = try bob.answer(hold)
        #expect(first.origin.sessionVersion + 1 == hold.origin.sessionVersion)
        #expect(hold.origin.sessionID == first.origin.sessionID)
        #expect(answer.origin.sessionVersion + 1 == holdAnswer.origin.sessionVersion)
        #expect(held.direction == .receiveOnly)
        #expect(try alice.apply(answer: holdAnswer).direction == .sendOnly)
    }

    /// The default address is the one on the default route, read independently: the
    /// interface of /proc/net/route's default entry and its address as `ip` reports it.
    @Test func defaultAddressIsTheDefaultRoutesNotLoopback() throws {
        let routes = try String(contentsOfFile: "/proc/net/route", encoding: .utf8).split(separator: "\n").dropFirst()
        guard let route = routes.map({ $0.split(whereSeparator: \.isWhitespace) }).first(where: { $0.count > 2 && $0[1] == "00000000" }) else {
            #expect(SocketAddress.defaultRouteIPv4() == nil)
            #expect(MediaSessionConfiguration().localAddress == .loopbackIPv4())
            return
        }
        // `ip` is iproute2's; without it the test fails here, naming the command.
        let output = try ExternalTool.run(["ip", "-4", "-o", "addr", "show", "dev", String(route[0])]).standardOutput
        let words = output.split(whereSeparator: \.isWhitespace)
        let interfaceAddress = try #require(words.firstIndex(of: "inet").map { words[$0 + 1].split(separator: "/")[0] })
        #expect(SocketAddress.defaultRouteIPv4()?.host == String(interfaceAddress))
        #expect(MediaSessionConfiguration().localAddress.host == String(interfaceAddress))
        #expect(MediaSessionConfiguration().localAddress.host != "127.0.0.1")
    }
}

extension LiveCalls {
    @Suite struct MediaSessionRTCPMuxDeclinedTests {
        /// The caller offers rtcp-mux, the callee declines it (as baresip and Linphone do):
        /// both bind RTP + 1 and RTCP flows both ways, with a round trip.
        @Test(arguments: [true, false])
        func rtcpFlowsBothWaysWhenMuxIsDeclined(callerOffersMux: Bool) throws {
            let call = try LoopbackCall(codecs: [.pcmu], sampleRate: 8000, sourceSeconds: 2) {
                $0.rtcpMux = callerOffersMux
            } adjustCallee: {
                $0.rtcpMux = !callerOffersMux
            }
            #expect(!call.callerMedia.rtcpMux && !call.calleeMedia.rtcpMux)
            #expect(call.callerMedia.remoteRTCPPort == Int(call.callee.localAddress.port) + 1)
            #expect(call.calleeMedia.remoteRTCPPort == Int(call.caller.localAddress.port) + 1)
            #expect(
                waitUntil(seconds: 3) {
                    call.caller.statistics.rtcpPacketsReceived >= 2 && call.callee.statistics.rtcpPacketsReceived >= 2
                        && call.caller.statistics.roundTripMilliseconds != nil
                })
            call.stop()
        }

        /// The answerer renumbers Opus (111 → 96) and telephone-event/48000 (101 → 100) in its
        /// answer, and sends as RFC 3264 says, on the offer's numbers: the offerer decodes it
        /// (before, it accepted only the answer's numbers and dropped every packet).
        @Test func offererDecodesItsOwnNumbersWhenTheAnswerRenumbers() throws {
            let call = try LoopbackCall(codecs: [.opus], sampleRate: 48000, sourceSeconds: 1) { _ in
            } adjustCallee: { _ in
            } rewriteAnswer: {
                $0.replacingOccurrences(of: "RTP/AVP 111 101", with: "RTP/AVP 96 100")
                    .replacingOccurrences(of: ":111 ", with: ":96 ").replacingOccurrences(of: ":101 ", with: ":100 ")
            }
            #expect(call.callerMedia.sendCodec.payloadType == 96)
            #expect(call.calleeMedia.sendCodec.payloadType == 111)
            #expect(Set(call.callerMedia.receiveAudioPayloadTypes) == [96, 111])
            try call.callee.sendDTMF("5")
            #expect(
                waitUntil(seconds: 2) {
                    call.caller.statistics.rtpPacketsReceived > 20 && call.callerEvents.events.contains(.dtmfReceived("5"))
                })
            call.stop()
            #expect(call.caller.statistics.unknownPayloadTypeDropped == 0)
        }

        /// The peer's `a=crypto` key carries an MKI (`|1:4`): the session's SRTP expects it in
        /// every packet, and the peer's packets, MKI included, are received.
        @Test func peersMasterKeyIdentifierReachesSRTP() throws {
            let session = try MediaSession(
                configuration: MediaSessionConfiguration(
                    localAddress: .loopbackIPv4(), codecs: [.pcmu], srtpSuites: [.aes128CounterModeHMACSHA1Tag80], symmetricRTP: false,
                    echoCancellation: false, noiseSuppression: false, audio: .endpoint(MemoryAudioEndpoint(source: [], recordingCapacitySamples: 0))
                ))
            var offer = try SessionDescription(parsing: SDPParsingTests.offer)
            offer.connection = SDPConnection(address: "127.0.0.1")
            let (_, media) = try session.answer(offer)
            let theirs = try #require(media.crypto?.remote.keys.first)
            let identifier = try #require(theirs.masterKeyIdentifier)
            #expect(identifier == SDESMasterKeyIdentifier(value: 1, length: 4))
            try session.start(negotiated: media)
            var peerOptions = SRTPSessionOptions()
            peerOptions.masterKeyIdentifier = identifier.octets
            var peerSRTP = try SRTPOutboundSession(key: theirs.masterKey, options: peerOptions)
            let peer = try UDPSocket(binding: .loopbackIPv4())
            var buffer = [UInt8](repeating: 0xD5, count: 12 + 160 + 32)
            for sequence in UInt16(1)...5 {
                let header: [UInt8] = [0x80, 0x00, 0, UInt8(sequence), 0, 0, UInt8(sequence), 0, 0xAB, 0xCD, 0xEF, 0x01]
                let length = try buffer.withUnsafeMutableBytes { bytes in
                    header.withUnsafeBytes { bytes.copyMemory(from: $0) }
                    return try peerSRTP.protectRTP(in: bytes, length: 12 + 160)
                }
                #expect(length == 12 + 160 + 4 + 10)
                _ = try buffer.withUnsafeBytes { try peer.send(UnsafeRawBufferPointer(rebasing: $0[..<length]), to: session.localAddress) }
            }
            #expect(waitUntil(seconds: 1) { session.statistics.rtpPacketsReceived == 5 })
            session.stop()
            #expect(session.statistics.authenticationFailures == 0)
        }

        /// Under AES_CM_128_HMAC_SHA1_32 SRTCP carries the 32-bit tag (Linphone, baresip) and
        /// an RFC peer's 80-bit tag is accepted too.
        @Test func truncatedTagSuiteCarriesSRTCPBothWays() throws {
            let call = try LoopbackCall(
                codecs: [.pcmu], sampleRate: 8000, sourceSeconds: 2, srtp: [.aes128CounterModeHMACSHA1Tag32]
            )
            #expect(waitUntil(seconds: 3) { call.caller.statistics.rtcpPacketsReceived >= 1 && call.callee.statistics.rtcpPacketsReceived >= 1 })
            let before = call.callee.statistics.rtcpPacketsReceived
            // An RFC 4568 peer with the caller's key: SRTCP with the 80-bit tag.
            var rfcPeer = try SRTPOutboundSession(key: #require(call.callerMedia.crypto).local.masterKey)  // RFC 3711's 80-bit SRTCP tag
            let report: [UInt8] = [0x80, 201, 0, 1, 0x0A, 0x0B, 0x0C, 0x0D]  // an empty receiver report
            var buffer = [UInt8](repeating: 0, count: 64)
            let length = try buffer.withUnsafeMutableBytes { bytes in
                report.withUnsafeBytes { bytes.copyMemory(from: $0) }
                return try rfcPeer.protectRTCP(in: bytes, length: report.count)
            }
            #expect(length == report.count + 14)
            let socket = try UDPSocket(binding: .loopbackIPv4())
            _ = try buffer.withUnsafeBytes { try socket.send(UnsafeRawBufferPointer(rebasing: $0[..<length]), to: call.callee.localAddress) }
            #expect(waitUntil(seconds: 1) { call.callee.statistics.rtcpPacketsReceived > before })
            call.stop()
            #expect(call.callee.statistics.authenticationFailures == 0)
            #expect(call.caller.statistics.authenticationFailures == 0)
        }

        /// STUN and baresip's plaintext RTCP APP PING/PONG are ignored without an alarm; a
        /// replayed authentic packet is counted as a replay, not as an authentication failure.
        @Test func keepalivesAndReplaysRaiseNoSRTPAlarm() throws {
            let call = try LoopbackCall(
                codecs: [.pcmu], sampleRate: 8000, sourceSeconds: 1.5, srtp: [.aes128CounterModeHMACSHA1Tag80],
                adjustCallee: { $0.symmetricRTP = false }
            )
            #expect(waitUntil(seconds: 1) { call.callee.statistics.rtpPacketsReceived > 5 })
            let peer = try UDPSocket(binding: .loopbackIPv4())
            func send(_ bytes: [UInt8]) throws {
                _ = try bytes.withUnsafeBytes { try peer.send($0, to: call.callee.localAddress) }
            }
            // A STUN binding request (RFC 5389: type 1, no attributes, magic cookie).
            try send([0x00, 0x01, 0x00, 0x00, 0x21, 0x12, 0xA4, 0x42] + [UInt8](repeating: 7, count: 12))
            // baresip's keepalive: RTCP APP, SSRC, name "PING", data "PONG", in clear.
            try send([0x80, 204, 0x00, 0x03, 1, 2, 3, 4] + Array("PINGPONG".utf8))
            // One authentic packet sent twice, as Linphone repeats its DTMF end packets.
            var forger = try SRTPOutboundSession(key: #require(call.callerMedia.crypto).local.masterKey)
            var packet = [UInt8](repeating: 0, count: 64)
            let header: [UInt8] = [0x80, 0x00, 0x12, 0x34, 0, 0, 0x10, 0, 0x5E, 0xED, 0x5E, 0xED] + [UInt8](repeating: 0xFF, count: 20)
            let length = try packet.withUnsafeMutableBytes { bytes in
                header.withUnsafeBytes { bytes.copyMemory(from: $0) }
                return try forger.protectRTP(in: bytes, length: header.count)
            }
            try send(Array(packet[..<length]))
            try send(Array(packet[..<length]))
            #expect(waitUntil(seconds: 1) { call.callee.statistics.keepalivesIgnored == 2 && call.callee.statistics.replaysDropped == 1 })
            call.stop()
            #expect(call.callee.statistics.authenticationFailures == 0)
            #expect(!call.calleeEvents.events.contains { if case .srtpFailure = $0 { true } else { false } })
        }
    }
}

extension MediaSessionNegotiationStateTests {
    /// Each recorded offer, answered with each of our codecs it has, starts a session: what
    /// negotiation accepts, the media path can carry (baresip's Opus says stereo=1).
    @Test(arguments: ["baresip-offer-avp.sdp", "linphone-offer-avp.sdp"], [SDPCodec.opus, .pcmu, .pcma])
    func everyAcceptedOfferStarts(fixture: String, codec: SDPCodec) throws {
        let session = try MediaSession(
            configuration: MediaSessionConfiguration(
                localAddress: .loopbackIPv4(), codecs: [codec], echoCancellation: false, noiseSuppression: false,
                audio: .endpoint(MemoryAudioEndpoint(source: [], recordingCapacitySamples: 0))
            ))
        var offer = try SessionDescription(parsing: Fixtures.sdp(fixture))
        offer.connection = SDPConnection(address: "127.0.0.1")  // send nowhere but here
        let (_, media) = try session.answer(offer)
        #expect(media.sendCodec.map.matches(codec.map))
        try session.start(negotiated: media)
        session.stop()
    }
}
