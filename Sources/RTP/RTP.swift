// RTP: RTP/RTCP packet views and builders, RFC 3550 reception statistics, RFC 4733 DTMF,
// and SRTP/SRTCP sessions over libsrtp2.
