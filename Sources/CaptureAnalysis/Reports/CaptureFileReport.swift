import QualityMetrics
import PlayoutLab
import Capture

/// What the analyzer found in one capture file: its streams, what else its UDP carried, and
/// how far the file could be read. Encoded as one object of the report JSON's `files` list.
public struct CaptureFileReport: Sendable, Hashable, Encodable {
    /// The file, as given.
    public var path: String
    /// Why reading stopped early (a truncated or corrupt file), or why the file could not be
    /// read at all; `nil` when it was read to the end. What was found before still counts.
    public var error: String?
    /// Frames read before the end or the error.
    public var framesRead: Int
    /// How the UDP datagrams were classified.
    public var datagrams: DatagramCounts
    /// The frame decoder's counts (frames, UDP, skips by reason).
    public var captureStatistics: String
    /// The RTP streams, ordered by their first packet.
    public var streams: [StreamReport]

    /// A report of a file with nothing in it yet.
    public init(path: String) {
        self.path = path
        error = nil
        framesRead = 0
        datagrams = DatagramCounts()
        captureStatistics = CaptureStatistics().description
        streams = []
    }

    /// One sentence for a file without RTP streams, saying what it held instead; `nil` when
    /// it has streams.
    public var noStreamsExplanation: String? {
        guard streams.isEmpty else { return nil }
        if framesRead == 0 { return "no frames read" }
        if datagrams.total == 0 { return "no RTP streams: no UDP datagrams in \(framesRead) frames" }
        return "no RTP streams: \(datagrams.total) UDP datagrams, none RTP (\(datagrams))"
    }

    enum CodingKeys: String, CodingKey {
        case path, error, framesRead = "frames_read", datagrams, captureStatistics = "capture_statistics", streams
    }

    /// Encodes every key, `error` as `null` when the file was read to the end.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(error, forKey: .error)
        try container.encode(framesRead, forKey: .framesRead)
        try container.encode(datagrams, forKey: .datagrams)
        try container.encode(captureStatistics, forKey: .captureStatistics)
        try container.encode(streams, forKey: .streams)
    }
}

/// How the analyzer classified a capture's UDP datagrams.
public struct DatagramCounts: Sendable, Hashable, Encodable, CustomStringConvertible {
    /// SIP messages.
    public var sip = 0
    /// Media sections learned from their SDP bodies.
    public var sdpMedia = 0
    /// RTP packets counted in streams.
    public var rtp = 0
    /// RTCP compound packets, SRTCP ones that decrypted included.
    public var rtcp = 0
    /// SRTCP packets that authenticated and decrypted (counted in ``rtcp`` too).
    public var srtcp = 0
    /// RTCP packets of a flow with an SRTP key that neither authenticated as SRTCP nor parsed
    /// as plain RTCP: a wrong key, or a tag length the SRTP layer does not take.
    public var srtcpFailures = 0
    /// Datagrams that looked like RTP but never formed a stream the heuristic accepts.
    public var unconfirmedRTP = 0
    /// Everything else (DNS, STUN, malformed RTP, …).
    public var other = 0

    /// No datagrams.
    public init() {}

    /// Every datagram counted.
    public var total: Int { sip + rtp + rtcp + srtcpFailures + unconfirmedRTP + other }

    enum CodingKeys: String, CodingKey {
        case sip, sdpMedia = "sdp_media", rtp, rtcp, srtcp, srtcpFailures = "srtcp_failures"
        case unconfirmedRTP = "unconfirmed_rtp", other
    }

    /// `sip=…, rtp=…, rtcp=…, unconfirmed rtp=…, other=…`, with the SRTCP counts when any.
    public var description: String {
        let control = srtcp + srtcpFailures == 0 ? "" : " (srtcp=\(srtcp), srtcp failures=\(srtcpFailures))"
        return "sip=\(sip), rtp=\(rtp), rtcp=\(rtcp)\(control), unconfirmed rtp=\(unconfirmedRTP), other=\(other)"
    }
}
