import Foundation
import MediaSession
import SIP

/// What one phone call came to, for the closing summary and `--format json`.
struct PhoneOutcome {
    var states: [CallState] = []
    var remoteUserAgent: String?
    var negotiated: NegotiatedAudio?
    var statistics = MediaSessionStatistics()
    var dtmfReceived = ""
    var meanOpinionScores: [Double] = []
    var heardPath: String?

    /// The last state (ended, normally).
    var finalState: CallState { states.last ?? .calling }

    /// Whether the call was answered.
    var connected: Bool { states.contains(.connected) }

    /// The mean of the per-second MOS figures, when there were any.
    var meanMOS: Double? {
        meanOpinionScores.isEmpty ? nil : meanOpinionScores.reduce(0, +) / Double(meanOpinionScores.count)
    }

    /// The SRTP suite agreed (its SDES name), nil for a plain call.
    var srtpSuite: String? {
        negotiated?.crypto?.suite.sdesName
    }

    /// The end reason, when the call ended.
    var endReason: String? {
        if case .ended(let reason) = finalState { return reason.description }
        return nil
    }

    /// The JSON object of issue 12: one line, keys in snake_case.
    func json() throws -> String {
        let null = NSNull()
        let object: [String: Any] = [
            "final_state": finalState.description,
            "end_reason": endReason ?? null,
            "states": states.map(\.description),
            "remote_user_agent": remoteUserAgent ?? null,
            "codec": negotiated.map { "\($0.sendCodec.map.encodingName)/\($0.sendCodec.map.clockRate)" } ?? null,
            "srtp_suite": srtpSuite ?? null,
            "rtcp_mux": negotiated?.rtcpMux ?? null,
            "rtp_sent": statistics.rtpPacketsSent,
            "rtp_received": statistics.rtpPacketsReceived,
            "rtcp_sent": statistics.rtcpPacketsSent,
            "rtcp_received": statistics.rtcpPacketsReceived,
            "rtt_ms": statistics.roundTripMilliseconds ?? null,
            "dtmf_received": dtmfReceived,
            "mos_mean": meanMOS ?? null,
            "heard_wav": heardPath ?? null,
            "malformed_dropped": statistics.malformedDropped,
            "authentication_failures": statistics.authenticationFailures,
        ]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// A few lines for people.
    var summary: String {
        var lines = ["call \(finalState)" + (endReason.map { " (\($0))" } ?? "")]
        if let negotiated {
            lines.append(
                "media: \(negotiated.sendCodec.map.encodingName)/\(negotiated.sendCodec.map.clockRate), "
                    + "\(srtpSuite.map { "SRTP \($0)" } ?? "plain RTP"), rtcp-mux \(negotiated.rtcpMux ? "yes" : "no")")
        }
        lines.append("peer: \(remoteUserAgent ?? "unknown")")
        lines.append(
            "rtp sent \(statistics.rtpPacketsSent), received \(statistics.rtpPacketsReceived); rtcp sent "
                + "\(statistics.rtcpPacketsSent), received \(statistics.rtcpPacketsReceived); rtt "
                + (statistics.roundTripMilliseconds.map { String(format: "%.1f ms", $0) } ?? "none"))
        lines.append("dtmf received: '\(dtmfReceived)'" + (meanMOS.map { String(format: ", mean MOS %.2f", $0) } ?? ""))
        if let heardPath { lines.append("wrote \(heardPath)") }
        return lines.joined(separator: "\n") + "\n"
    }
}
