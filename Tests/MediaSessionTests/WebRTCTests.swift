import Foundation
import Testing
import RTP
import SecureTransport

@testable import MediaSession

/// A browser-shaped offer (Chromium's layout: BUNDLE, audio with rtcp-mux and rtcp-rsize,
/// ssrc/msid lines, a video and a data-channel section, end-of-candidates).
enum BrowserOffer {
    static let ice = ICECredentials(usernameFragment: "peer", password: "peerpasswordpeerpassword")

    static func text(fingerprint: CertificateFingerprint, rtcpMux: Bool = true) -> String {
        var lines = [
            "v=0", "o=- 4611731400430051336 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0 1 2",
            "a=msid-semantic: WMS stream", "m=audio 9 UDP/TLS/RTP/SAVPF 111 63 9 0 8 13 110 126", "c=IN IP4 0.0.0.0",
            "a=rtcp:9 IN IP4 0.0.0.0", "a=ice-ufrag:\(ice.usernameFragment)", "a=ice-pwd:\(ice.password)",
            "a=ice-options:trickle", "a=fingerprint:\(fingerprint.attributeValue)", "a=setup:actpass", "a=mid:0",
            "a=extmap:1 urn:ietf:params:rtp-hdrext:ssrc-audio-level", "a=sendrecv", "a=msid:stream track",
        ]
        if rtcpMux { lines.append("a=rtcp-mux") }
        lines += [
            "a=rtcp-rsize", "a=rtpmap:111 opus/48000/2", "a=rtcp-fb:111 transport-cc", "a=fmtp:111 minptime=10;useinbandfec=1",
            "a=rtpmap:63 red/48000/2", "a=fmtp:63 111/111", "a=rtpmap:9 G722/8000", "a=rtpmap:0 PCMU/8000", "a=rtpmap:8 PCMA/8000",
            "a=rtpmap:13 CN/8000", "a=rtpmap:110 telephone-event/48000", "a=rtpmap:126 telephone-event/8000",
            "a=ssrc:1001 cname:browser", "a=ssrc:1001 msid:stream track", "a=end-of-candidates",
            "m=video 9 UDP/TLS/RTP/SAVPF 96 97", "c=IN IP4 0.0.0.0", "a=mid:1", "a=rtpmap:96 VP8/90000", "a=rtpmap:97 rtx/90000",
            "a=sendrecv", "a=rtcp-mux",
            "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0", "a=mid:2", "a=sctp-port:5000",
        ]
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}

@Suite("WebRTC offer/answer")
struct WebRTCNegotiationTests {
    static let local = LocalAudioCapabilities(address: "127.0.0.1", rtpPort: 40_000, codecs: [.opus, .pcmu, .pcma])

    @Test("A browser's offer is answered ICE-lite, DTLS passive, Opus with FEC, telephone-event/48000, BUNDLE, other m-lines refused")
    func answersABrowserOffer() throws {
        let peer = try DTLSCertificate()
        let ours = try DTLSCertificate()
        let offer = try SessionDescription(parsing: BrowserOffer.text(fingerprint: peer.fingerprint))
        let transport = WebRTCLocalTransport(ice: .random(), fingerprint: ours.fingerprint)
        let (answer, negotiated) = try WebRTCNegotiation.answer(to: offer, with: Self.local, transport: transport)
        let text = answer.text
        #expect(text.contains("a=ice-lite\r\n") && text.contains("a=group:BUNDLE 0\r\n"))
        #expect(text.contains("m=audio 40000 UDP/TLS/RTP/SAVPF 111 110\r\n"), "the chosen codec and telephone-event only: \(text)")
        #expect(text.contains("a=rtpmap:111 opus/48000/2\r\na=fmtp:111 minptime=10;useinbandfec=1\r\n"))
        #expect(text.contains("a=rtpmap:110 telephone-event/48000\r\n"))
        #expect(text.contains("a=rtcp-mux\r\n") && text.contains("a=setup:passive\r\n") && text.contains("a=mid:0\r\n"))
        #expect(text.contains("a=fingerprint:\(ours.fingerprint.attributeValue)\r\n"))
        #expect(text.contains("a=ice-ufrag:\(transport.ice.usernameFragment)\r\na=ice-pwd:\(transport.ice.password)\r\n"))
        #expect(text.contains("a=candidate:1 1 udp 2130706431 127.0.0.1 40000 typ host\r\na=end-of-candidates\r\n"))
        #expect(text.contains("m=video 0 UDP/TLS/RTP/SAVPF 96 97\r\na=mid:1\r\n"))
        #expect(text.contains("m=application 0 UDP/DTLS/SCTP webrtc-datachannel\r\na=mid:2\r\n"))
        #expect(!text.contains("a=crypto"))
        #expect(negotiated.dtlsRole == .server && negotiated.remoteFingerprint == peer.fingerprint)
        #expect(negotiated.remoteICE == BrowserOffer.ice && negotiated.mid == "0")
        #expect(negotiated.media.sendCodec.payloadType == 111 && negotiated.media.telephoneEventPayloadType == 110)
        // The answer parses back with the same parser, and its audio section is the first.
        let reparsed = try SessionDescription(parsing: text)
        #expect(reparsed.media.count == 3 && reparsed.media[0].port == 40_000 && reparsed.media[1].port == 0)
    }

    @Test("An offer without rtcp-mux is refused, naming it")
    func rtcpMuxIsRequired() throws {
        let peer = try DTLSCertificate()
        let offer = try SessionDescription(parsing: BrowserOffer.text(fingerprint: peer.fingerprint, rtcpMux: false))
        #expect(throws: WebRTCOfferError.self) {
            try WebRTCNegotiation.answer(to: offer, with: Self.local, transport: WebRTCLocalTransport(ice: .random(), fingerprint: peer.fingerprint))
        }
    }
}

/// A `WebRTCCall` on real sockets, its peer played by this test: checks with a bad
/// MESSAGE-INTEGRITY, and a nominated pair whose DTLS handshake never starts.
@Suite("WebRTC call failures on loopback")
struct WebRTCCallFailureTests {
    static func call() throws -> (WebRTCCall, UDPSocket) {
        let peer = try DTLSCertificate()
        let offer = try SessionDescription(parsing: BrowserOffer.text(fingerprint: peer.fingerprint))
        let configuration = MediaSessionConfiguration(audio: .endpoint(MemoryAudioEndpoint(source: [], recordingCapacitySamples: 0)))
        let call = try WebRTCCall(
            offer: offer, configuration: configuration, certificate: try DTLSCertificate(), handshakeTimeout: MediaTime(seconds: 2))
        return (call, try UDPSocket(binding: .loopbackIPv4()))
    }

    static func check(to call: WebRTCCall, from socket: UDPSocket, password: String) throws {
        let ufrag = try #require(call.answer.media[0].otherAttributes.first { $0.name == "ice-ufrag" }?.value)
        var builder = STUNMessageBuilder(type: .bindingRequest, transactionID: (0..<12).map { _ in UInt8.random(in: 0...255) })
        builder.append(.username, value: Array("\(ufrag):\(BrowserOffer.ice.usernameFragment)".utf8))
        builder.append(.iceControlling, value: [UInt8](repeating: 7, count: 8))
        builder.append(.useCandidate, value: [])
        let request = builder.finish(integrityKey: Array(password.utf8), fingerprint: true)
        _ = try request.withUnsafeBytes { try socket.send($0, to: call.session.localAddress) }
    }

    static func finalState(of call: WebRTCCall) async -> WebRTCCallState? {
        var last: WebRTCCallState?
        for await state in call.stateChanges { last = state }
        return last
    }

    @Test("Checks with a bad MESSAGE-INTEGRITY are refused; the call ends saying so")
    func badIntegrityEndsTheCall() async throws {
        let (call, socket) = try Self.call()
        try Self.check(to: call, from: socket, password: "not-the-right-password-at-all")
        let state = await Self.finalState(of: call)
        guard case let .ended(reason) = state else { Issue.record("\(String(describing: state))"); return }
        #expect(reason.contains("no candidate pair nominated") && reason.contains("MESSAGE-INTEGRITY"), "\(reason)")
    }

    @Test("A nominated pair whose DTLS handshake never completes ends the call at the deadline")
    func silentDTLSEndsTheCall() async throws {
        let (call, socket) = try Self.call()
        let password = try #require(call.answer.media[0].otherAttributes.first { $0.name == "ice-pwd" }?.value)
        try Self.check(to: call, from: socket, password: password)
        let state = await Self.finalState(of: call)
        guard case let .ended(reason) = state else { Issue.record("\(String(describing: state))"); return }
        #expect(reason.contains("DTLS handshake did not complete"), "\(reason)")
        #expect(call.session.statistics.rtpPacketsReceived == 0)
    }
}
