/// One stage of a call's media path, as `bench session` costs it, in the order a frame meets
/// them: the audio thread's 10 ms tick (pull, play and capture, echo cancel and denoise), the
/// send path, the receive path, and the once-in-a-while work (RTCP, the quality report).
enum CallStage: Int, CaseIterable {
    /// Playing 10 ms and capturing 10 ms through the session's audio endpoint.
    case capture
    /// The speexdsp echo canceller (200 ms tail) and denoiser on 10 ms of capture.
    case echoCancelAndDenoise
    /// G.711 µ-law encoding of a 20 ms frame.
    case g711Encode
    /// Writing the RTP header around the encoded payload.
    case rtpPacketise
    /// SRTP protection of one packet.
    case srtpProtect
    /// One `sendto` on loopback.
    case udpSend
    /// One batch receive (`recvmmsg`) that takes the packet off the socket.
    case udpReceive
    /// SRTP authentication and decryption of one packet.
    case srtpUnprotect
    /// Classifying the datagram, parsing the RTP header, RFC 3550 reception statistics and the
    /// quality monitor's per-packet count.
    case rtpParseAndStatistics
    /// Handing the packet to the jitter buffer (a copy into its inbox).
    case jitterInsert
    /// One 10 ms pull: the decision logic, G.711 decoding and any time-stretching.
    case jitterPull
    /// One RTCP compound (SR, report block, SDES, XR): built, protected, sent, received,
    /// unprotected, parsed and recorded, at the rate RFC 3550 schedules it.
    case rtcp
    /// The quality monitor's report of the last second.
    case qualityReport

    /// The case name of the stage's row.
    var caseName: String {
        switch self {
        case .capture: "stage-capture"
        case .echoCancelAndDenoise: "stage-echo-cancel-denoise"
        case .g711Encode: "stage-g711-encode"
        case .rtpPacketise: "stage-rtp-packetise"
        case .srtpProtect: "stage-srtp-protect"
        case .udpSend: "stage-udp-send"
        case .udpReceive: "stage-udp-receive"
        case .srtpUnprotect: "stage-srtp-unprotect"
        case .rtpParseAndStatistics: "stage-rtp-parse-statistics"
        case .jitterInsert: "stage-jitter-insert"
        case .jitterPull: "stage-jitter-pull"
        case .rtcp: "stage-rtcp"
        case .qualityReport: "stage-quality-report"
        }
    }

    /// The stages of the send and receive paths proper, which ``PipelineProbe`` runs as a whole
    /// (one frame sent, received and played), to check the stages against.
    static let packetPath: [CallStage] = [
        .g711Encode, .rtpPacketise, .srtpProtect, .udpSend, .udpReceive, .srtpUnprotect, .rtpParseAndStatistics,
        .jitterInsert, .jitterPull,
    ]
}
