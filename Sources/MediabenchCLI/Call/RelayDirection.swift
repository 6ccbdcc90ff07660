/// Which way a datagram crosses the ``ImpairmentRelay``.
enum RelayDirection: Int, CaseIterable, Sendable {
    /// From the caller's session to the callee's.
    case callerToCallee
    /// From the callee's session to the caller's.
    case calleeToCaller
}

/// What a datagram carries, told apart on an rtcp-mux port by RFC 5761 §4 (an RTCP packet
/// type, 192–223, in the second byte; SRTCP keeps that byte in the clear).
enum RelayTraffic: Int, CaseIterable, Sendable {
    /// RTP (or SRTP) media.
    case rtp
    /// RTCP (or SRTCP) reports.
    case rtcp

    /// The kind of `datagram`.
    init(classifying datagram: UnsafeRawBufferPointer) {
        self = datagram.count >= 2 && (192...223).contains(datagram[1]) ? .rtcp : .rtp
    }
}

/// Counts of what the relay did in one direction.
struct RelayCounts: Sendable, Equatable {
    /// RTP datagrams that reached the relay.
    var rtpReceived = 0
    /// RTP datagrams the network model lost.
    var rtpDropped = 0
    /// RTP copies forwarded, duplicates included.
    var rtpDelivered = 0
    /// RTCP datagrams that reached the relay.
    var rtcpReceived = 0
    /// RTCP datagrams the network model lost.
    var rtcpDropped = 0
    /// RTCP copies forwarded, duplicates included.
    var rtcpDelivered = 0
    /// The smallest delay given to a forwarded RTP copy, in milliseconds (infinity before any).
    var rtpFastestDelayMilliseconds = Double.infinity
}
