import RTP

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
    /// Where the sender's audio reached the relay against its RTP clock.
    var sending = RelaySendingClock()
    /// RTP copies the relay forwarded ``lateDeliveryMilliseconds`` or more after they were due
    /// (its delivery thread woke late: this host's scheduling, not the network model).
    var rtpLateDeliveries = 0
    /// The most an RTP copy left after it was due, in milliseconds.
    var rtpLatestDeliveryMilliseconds = 0.0

    /// A forwarded copy this much after it was due counts in ``rtpLateDeliveries``.
    static let lateDeliveryMilliseconds = 2.0

    /// How far behind the fastest the slowest RTP datagram reached the relay, measured against
    /// the sender's RTP clock, in milliseconds: on loopback, the sending host's own scheduling
    /// (a late tick), before any network delay.
    var rtpSendingSpreadMilliseconds: Double { sending.spreadMilliseconds }
}

/// Where one direction's audio reaches the relay against the sender's RTP clock: the spread of
/// arrival time minus media time, from the fastest datagram to the slowest. Only the payload
/// type of the first datagram counts (the audio): a telephone event keeps its start's timestamp
/// for the whole digit.
struct RelaySendingClock: Sendable, Equatable {
    private var firstPayloadType: UInt8?
    private var firstTimestamp = RTPTimestamp(0)
    private var fastest = Double.infinity
    private var slowest = -Double.infinity

    /// The spread so far, in milliseconds (0 before the first datagram).
    var spreadMilliseconds: Double { fastest.isFinite ? slowest - fastest : 0 }

    /// Records `packet`, which reached the relay at `arrivalNanoseconds`; its payload type's
    /// RTP clock runs at `clockRate`.
    mutating func record(_ packet: RTPPacket, arrivalNanoseconds: Int64, clockRate: Int) {
        if firstPayloadType == nil {
            firstPayloadType = packet.payloadType
            firstTimestamp = packet.timestamp
        }
        guard packet.payloadType == firstPayloadType else { return }
        // Media time since the first datagram (wrapping; negative for one sent before it).
        let mediaMilliseconds = Double(firstTimestamp.distance(to: packet.timestamp)) * 1000 / Double(clockRate)
        let offset = Double(arrivalNanoseconds) / 1e6 - mediaMilliseconds
        fastest = min(fastest, offset)
        slowest = max(slowest, offset)
    }
}
