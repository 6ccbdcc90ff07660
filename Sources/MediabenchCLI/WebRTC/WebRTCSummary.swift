import Foundation
import MediaSession

/// The `webrtc` command's closing summary: the keys of the issue, as text or JSON.
struct WebRTCSummary {
    var finalState: String
    var codec: String?
    var srtpSuite: String?
    var dtlsRole: String?
    var statistics: MediaSessionStatistics
    var dtmfReceived: String
    var meanOpinionScore: Double?

    /// The text of a call state.
    static func text(of state: WebRTCCallState) -> String {
        switch state {
        case .connecting: "connecting"
        case let .connected(suite, role): "connected (\(suite.sdesName), DTLS \(role.rawValue))"
        case let .ended(reason): "ended: \(reason)"
        }
    }

    /// The summary as one JSON object.
    var dictionary: [String: Any] {
        var object: [String: Any] = [
            "final_state": finalState, "rtp_received": statistics.rtpPacketsReceived, "rtp_sent": statistics.rtpPacketsSent,
            "rtcp_received": statistics.rtcpPacketsReceived, "rtcp_sent": statistics.rtcpPacketsSent,
            "srtp_authentication_failures": statistics.authenticationFailures, "dtmf_received": dtmfReceived,
        ]
        // Every key is present; what the call never learnt is null (no MOS for a codec without a
        // G.113 impairment factor, such as Opus; no suite when the handshake failed).
        let optional: [String: Any?] = [
            "codec": codec, "srtp_suite": srtpSuite, "dtls_role": dtlsRole,
            "rtt_ms": statistics.roundTripMilliseconds, "mos_mean": meanOpinionScore,
        ]
        for (key, value) in optional { object[key] = value ?? NSNull() }
        return object
    }

    /// The summary as aligned text.
    var text: String {
        dictionary.sorted { $0.key < $1.key }.map { "\($0.key.padding(toLength: 30, withPad: " ", startingAt: 0)) \($0.value)" }
            .joined(separator: "\n") + "\n"
    }
}
