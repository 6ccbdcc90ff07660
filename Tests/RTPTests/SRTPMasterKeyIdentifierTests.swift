import RTP
import Testing

/// SDES MKIs (RFC 4568 `|MKI:length`) in SRTP and SRTCP packets, checked against the packet
/// layout of RFC 3711 §3.1 and §3.4: the MKI sits between the encrypted part and the tag and is
/// not authenticated, so a packet protected with an MKI is the one protected without it with
/// the MKI's octets inserted before the tag.
///
/// Under the `_32` suites SRTCP uses the SRTP tag's length here (``SRTCPTagLength/sameAsSRTP``,
/// as the media session does): libsrtp 2.5.0 looks for the MKI of an SRTCP packet one SRTP tag
/// from its end, so with the 80-bit SRTCP tag it reports `srtp_err_status_bad_mki`.
@Suite("SRTP master key identifiers")
struct SRTPMasterKeyIdentifierTests {
    @Test(arguments: [SRTPCryptoSuite.aes128CounterModeHMACSHA1Tag80, .aes128CounterModeHMACSHA1Tag32, .aes256CounterModeHMACSHA1Tag32])
    func identifierSitsBeforeTheTagAndRoundTrips(suite: SRTPCryptoSuite) throws {
        let key = SRTPMasterKey.random(for: suite)
        let identifier = try #require(SDESMasterKeyIdentifier(value: 0x0102_0304, length: 4))
        #expect(identifier.octets == [1, 2, 3, 4])
        let srtcpTag = SRTCPTagLength.sameAsSRTP
        var plain = try SRTPOutboundSession(key: key, srtcpTagLength: srtcpTag)
        var withIdentifier = try SRTPOutboundSession(key: key, srtcpTagLength: srtcpTag, masterKeyIdentifier: identifier)
        var receiver = try SRTPInboundSession(key: key, srtcpTagLength: srtcpTag, masterKeyIdentifier: identifier)
        for (packet, rtcp) in [(SRTPTestPackets.rtp(sequence: 7), false), (SRTPTestPackets.rtcp(marker: 1), true)] {
            let without = try plain.protect(packet, rtcp: rtcp).get()
            let with = try withIdentifier.protect(packet, rtcp: rtcp, extraRoom: 4).get()
            let tag = rtcp ? suite.rtcpTagLength(srtcpTag) : suite.rtpTagLength
            #expect(with == Array(without.dropLast(tag)) + identifier.octets + Array(without.suffix(tag)))
            #expect(try receiver.unprotect(with, rtcp: rtcp).get() == packet)
        }
        // A packet with another MKI is refused, never decrypted with the wrong key.
        var other = try SRTPOutboundSession(key: key, masterKeyIdentifier: SDESMasterKeyIdentifier(value: 9, length: 4))
        let foreign = try other.protect(SRTPTestPackets.rtp(sequence: 8), extraRoom: 4).get()
        #expect((try? receiver.unprotect(foreign).get()) == nil)
    }
}
