import QualityMetrics
import PlayoutLab
import RTP
/// The RTP clock that Wireshark 4.0's RTP analysis assumes for a payload type: the rate it
/// converts timestamps with, or the reason it has none (then it computes no jitter, and tshark
/// prints the jitter columns as −1 / 0 / 0).
///
/// Resolve it once per payload type with ``forPayloadType(_:encodingName:sdpClockRate:)`` and
/// pass it with every packet of that type.
public enum WiresharkPayloadClock: Sendable, Hashable {
    /// A known RTP clock, in hertz (never 0).
    case rate(hertz: UInt32)
    /// An RFC 4733 telephone-event payload: Wireshark deliberately uses no clock, because event
    /// packets repeat their timestamp (RFC 4733 §2.2.1 via Wireshark's comment).
    case telephoneEvent
    /// A dynamic payload type Wireshark knows nothing about (no SDP in the capture, or an
    /// encoding name it has no rate for), or a static one missing from its table.
    case unknown

    /// The clock rate in hertz that the analysis uses, 0 when it uses none.
    public var hertz: UInt32 {
        if case .rate(let hertz) = self { return hertz }
        return 0
    }

    /// The clock Wireshark 4.0 picks for a packet, as `rtppacket_analyse` in
    /// `ui/tap-rtp-analysis.c` does:
    /// - payload types below 96 use Wireshark's static table (``staticRate(payloadType:)``),
    ///   whatever the SDP says;
    /// - a dynamic type with no encoding name (nothing learned from SDP) has no clock;
    /// - an encoding name starting with `telephone-event` (any case) has none on purpose;
    /// - otherwise the SDP `a=rtpmap` rate when it is not 0, else the rate Wireshark's table of
    ///   registered media subtypes gives the name (``dynamicRate(encodingName:)``).
    ///
    /// - Parameters:
    ///   - payloadType: the packet's 7-bit payload type.
    ///   - encodingName: the SDP encoding name of a dynamic type (`opus`, `telephone-event`),
    ///     `nil` when the capture did not say.
    ///   - sdpClockRate: the clock rate of that `a=rtpmap` line, `nil` or 0 when absent.
    public static func forPayloadType(
        _ payloadType: UInt8, encodingName: String? = nil, sdpClockRate: UInt32? = nil
    ) -> WiresharkPayloadClock {
        if payloadType < 96 {
            return clock(hertz: staticRate(payloadType: payloadType))
        }
        guard let encodingName else { return .unknown }
        if encodingName.hasCaseInsensitivePrefix("telephone-event") {
            return .telephoneEvent
        }
        if let sdpClockRate, sdpClockRate != 0 {
            return .rate(hertz: sdpClockRate)
        }
        return clock(hertz: dynamicRate(encodingName: encodingName))
    }

    /// Wireshark 4.0's clock rate for a static payload type (its `clock_map`, after the IANA RTP
    /// parameters registry), 0 for a type it does not list. Note G.722 (9) is 8000, as RFC 3551
    /// says, although the audio is sampled at 16 kHz.
    public static func staticRate(payloadType: UInt8) -> UInt32 {
        if let assignment = StaticPayloadAssignment(payloadType: payloadType) { return assignment.clockRate }
        // Beyond RFC 3551's table Wireshark also clocks the types the IANA registry once
        // assigned: 1 (1016), 2 (G721) and 19 (the old CN), all at 8000 Hz.
        switch payloadType {
        case 1, 2, 19: return 8000
        default: return 0
        }
    }

    /// Wireshark 4.0's clock rate for a dynamic payload type's encoding name when the SDP gave
    /// no rate (its `mimetype_and_clock_map`), 0 when it has none. Like Wireshark, a table name
    /// matches when it is a case-insensitive prefix of `encodingName`, and the table is searched
    /// from its last entry so that the longest of two nested names wins (`AMR-WB` before `AMR`).
    /// The entries are those of Wireshark's current source; 4.0's table may lack the newest ones
    /// (such as `opus` or `EVS`), which matters only for an `a=rtpmap` without a rate.
    public static func dynamicRate(encodingName: String) -> UInt32 {
        for (name, hertz) in dynamicRates.reversed() where encodingName.hasCaseInsensitivePrefix(name) {
            return hertz
        }
        return 0
    }

    private static func clock(hertz: UInt32) -> WiresharkPayloadClock {
        hertz == 0 ? .unknown : .rate(hertz: hertz)
    }

    /// The media subtypes of Wireshark 4.0's table, in its (case-insensitive alphabetical) order.
    private static let dynamicRates: [(name: String, hertz: UInt32)] = [
        ("AMR", 8000), ("AMR-WB", 16000), ("BMPEG", 90000), ("BT656", 90000), ("DV", 90000),
        ("EVRC", 8000), ("EVRC0", 8000), ("EVRC1", 8000), ("EVRCB", 8000), ("EVRCB0", 8000),
        ("EVRCB1", 8000), ("EVRCWB", 16000), ("EVRCWB0", 16000), ("EVRCWB1", 16000),
        ("EVS", 16000), ("G7221", 16000), ("G726-16", 8000), ("G726-24", 8000),
        ("G726-32", 8000), ("G726-40", 8000), ("G729D", 8000), ("G729E", 8000),
        ("GSM-EFR", 8000), ("H263-1998", 90000), ("H263-2000", 90000), ("H264", 90000),
        ("MP1S", 90000), ("MP2P", 90000), ("MP4V-ES", 90000), ("mpa-robust", 90000),
        ("opus", 48000), ("pointer", 90000), ("raw", 90000), ("red", 1000), ("SMV", 8000),
        ("SMV0", 8000), ("t140", 1000), ("telephone-event", 8000),
    ]
}

extension String {
    /// Whether `prefix` starts this string, comparing ASCII letters without case (as glib's
    /// `g_ascii_strncasecmp` over the prefix's length does).
    fileprivate func hasCaseInsensitivePrefix(_ prefix: String) -> Bool {
        var characters = utf8.makeIterator()
        for expected in prefix.utf8 {
            guard let actual = characters.next(), actual.asciiLowercased == expected.asciiLowercased else {
                return false
            }
        }
        return true
    }
}

extension UInt8 {
    fileprivate var asciiLowercased: UInt8 {
        (0x41...0x5A).contains(self) ? self | 0x20 : self
    }
}
