/// Which authentication tag SRTCP carries under the `_32` suites (AES_CM_128_HMAC_SHA1_32,
/// AES_256_CM_HMAC_SHA1_32). RFC 4568 §6.2.2 and RFC 6188 keep SRTCP at the 80-bit tag;
/// Linphone (mediastreamer2 over libsrtp) and baresip (libre's SRTP) both protect SRTCP with
/// the 32-bit SRTP tag instead. Other suites are unaffected.
public enum SRTCPTagLength: Sendable, Hashable, CaseIterable {
    /// The tag the RFCs give the suite (80 bits for every HMAC-SHA1 suite).
    case rfc
    /// The SRTP tag's length (32 bits under the `_32` suites), as Linphone and baresip do.
    case sameAsSRTP
}
