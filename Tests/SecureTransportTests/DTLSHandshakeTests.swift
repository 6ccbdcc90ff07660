import Testing
import RTP
import SecureTransport

/// Two DTLS-SRTP endpoints joined in memory: datagrams one returns are handed to the other.
@Suite("DTLS-SRTP handshake in memory")
struct DTLSHandshakeTests {
    /// Runs the exchange until neither side has anything to send; `deliver` may drop datagrams.
    static func exchange(
        client: inout DTLSEndpoint, server: inout DTLSEndpoint, now: MediaTime = .zero,
        deliver: (DTLSRole, [UInt8]) -> Bool = { _, _ in true }
    ) {
        var toServer = client.start(now: now)
        _ = server.start(now: now)
        var toClient: [[UInt8]] = []
        var rounds = 0
        while !(toServer.isEmpty && toClient.isEmpty), rounds < 20 {
            rounds += 1
            var nextToClient: [[UInt8]] = []
            for datagram in toServer where deliver(.server, datagram) {
                nextToClient += datagram.withUnsafeBytes { server.receive($0, now: now) }
            }
            var nextToServer: [[UInt8]] = []
            for datagram in toClient + nextToClient where deliver(.client, datagram) {
                nextToServer += datagram.withUnsafeBytes { client.receive($0, now: now) }
            }
            toServer = nextToServer
            toClient = []
        }
    }

    static func keys(_ state: DTLSState) -> DTLSSRTPKeys? {
        if case let .connected(keys) = state { return keys }
        return nil
    }

    @Test("Two endpoints agree on AEAD_AES_128_GCM; each one's sending key is the other's receiving key")
    func handshakeExportsMatchingKeys() throws {
        let clientCertificate = try DTLSCertificate()
        let serverCertificate = try DTLSCertificate()
        var client = try DTLSEndpoint(role: .client, certificate: clientCertificate, remoteFingerprint: serverCertificate.fingerprint)
        var server = try DTLSEndpoint(role: .server, certificate: serverCertificate, remoteFingerprint: clientCertificate.fingerprint)
        Self.exchange(client: &client, server: &server)
        let clientKeys = try #require(Self.keys(client.state), "client: \(client.state)")
        let serverKeys = try #require(Self.keys(server.state), "server: \(server.state)")
        #expect(clientKeys.suite == .aeadAES128GCM)
        #expect(clientKeys.local == serverKeys.remote)
        #expect(clientKeys.remote == serverKeys.local)
        #expect(clientKeys.local != clientKeys.remote)
    }

    @Test("A server offering only AES128_CM_SHA1_80 gets that profile, and the keys protect SRTP end to end")
    func counterModeProfileKeysWorkWithSRTP() throws {
        let clientCertificate = try DTLSCertificate()
        let serverCertificate = try DTLSCertificate()
        var client = try DTLSEndpoint(role: .client, certificate: clientCertificate, remoteFingerprint: serverCertificate.fingerprint)
        var server = try DTLSEndpoint(
            role: .server, certificate: serverCertificate, remoteFingerprint: clientCertificate.fingerprint,
            suites: [.aes128CounterModeHMACSHA1Tag80])
        Self.exchange(client: &client, server: &server)
        let clientKeys = try #require(Self.keys(client.state))
        let serverKeys = try #require(Self.keys(server.state))
        #expect(clientKeys.suite == .aes128CounterModeHMACSHA1Tag80)
        var outbound = try SRTPOutboundSession(key: clientKeys.local)
        var inbound = try SRTPInboundSession(key: serverKeys.remote)
        var packet = [UInt8](repeating: 0, count: 200)
        let plain: [UInt8] = [0x80, 0x00, 0x00, 0x01, 0, 0, 0, 160, 0x12, 0x34, 0x56, 0x78] + [UInt8](repeating: 0x55, count: 20)
        packet.replaceSubrange(0..<plain.count, with: plain)
        let protectedLength = try packet.withUnsafeMutableBytes { try outbound.protectRTP(in: $0, length: plain.count) }
        let unprotectedLength = try packet.withUnsafeMutableBytes { try inbound.unprotectRTP(in: $0, length: protectedLength) }
        #expect(Array(packet[0..<unprotectedLength]) == plain)
    }

    @Test("A peer certificate that does not match the signalled fingerprint fails the handshake with a clear reason")
    func wrongFingerprintIsRejected() throws {
        let clientCertificate = try DTLSCertificate()
        let serverCertificate = try DTLSCertificate()
        let impostor = try DTLSCertificate()
        var client = try DTLSEndpoint(role: .client, certificate: clientCertificate, remoteFingerprint: impostor.fingerprint)
        var server = try DTLSEndpoint(role: .server, certificate: serverCertificate, remoteFingerprint: clientCertificate.fingerprint)
        Self.exchange(client: &client, server: &server)
        #expect(client.state == .failed(.fingerprintMismatch(expected: impostor.fingerprint, received: serverCertificate.fingerprint)))
        guard case let .failed(failure) = client.state else { return }
        #expect(failure.description.contains("does not match"))
    }

    @Test("A handshake that never completes fails at its deadline on the injected clock")
    func silentPeerTimesOut() throws {
        let certificate = try DTLSCertificate()
        var server = try DTLSEndpoint(
            role: .server, certificate: certificate, remoteFingerprint: certificate.fingerprint, handshakeTimeout: MediaTime(seconds: 5))
        _ = server.start(now: .zero)
        _ = server.poll(now: MediaTime(seconds: 4.9))
        #expect(server.state == .handshaking)
        _ = server.poll(now: MediaTime(seconds: 5))
        #expect(server.state == .failed(.handshakeTimedOut(seconds: 5)))
    }

    @Test("Garbage in the DTLS range is counted and dropped; the handshake still completes")
    func garbageIsDropped() throws {
        let clientCertificate = try DTLSCertificate()
        let serverCertificate = try DTLSCertificate()
        var client = try DTLSEndpoint(role: .client, certificate: clientCertificate, remoteFingerprint: serverCertificate.fingerprint)
        var server = try DTLSEndpoint(role: .server, certificate: serverCertificate, remoteFingerprint: clientCertificate.fingerprint)
        let garbage: [UInt8] = [22, 0xFE, 0xFD, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 1, 2]
        _ = garbage.withUnsafeBytes { server.receive($0, now: .zero) }
        #expect(server.malformedDropped == 1)
        Self.exchange(client: &client, server: &server)
        #expect(Self.keys(server.state) != nil)
    }

    @Test("The certificate's fingerprint round-trips through its a=fingerprint text")
    func fingerprintText() throws {
        let certificate = try DTLSCertificate()
        let text = certificate.fingerprint.attributeValue
        #expect(text.hasPrefix("sha-256 "))
        #expect(text.split(separator: ":").count == 32)
        #expect(CertificateFingerprint(attributeValue: text) == certificate.fingerprint)
        #expect(CertificateFingerprint(attributeValue: text.lowercased()) == certificate.fingerprint)
        #expect(CertificateFingerprint(attributeValue: "sha-1 AB:CD") == nil)
    }

    @Test("RFC 8842 answers: passive to actpass or active, active to passive")
    func setupAnswers() {
        #expect(DTLSSetupAttribute.answer(toOffered: .actpass) == .passive)
        #expect(DTLSSetupAttribute.answer(toOffered: .active) == .passive)
        #expect(DTLSSetupAttribute.answer(toOffered: .passive) == .active)
        #expect(DTLSSetupAttribute.answer(toOffered: .holdconn) == nil)
    }
}
