import QualityMetrics
import PlayoutLab
import Capture
import RTP

/// What an RTP payload type carries: its encoding name and RTP clock rate, from an SDP
/// `a=rtpmap` line or the static assignments of RFC 3551.
public struct PayloadFormat: Sendable, Hashable, Codable {
    /// The encoding name as SDP spells it (`PCMU`, `opus`, `telephone-event`).
    public var encodingName: String
    /// The RTP clock rate in hertz, `nil` when the SDP gave none.
    public var clockRate: UInt32?

    /// A format with the given name and clock rate.
    public init(encodingName: String, clockRate: UInt32?) {
        self.encodingName = encodingName
        self.clockRate = clockRate
    }

    /// Whether the payload is an RFC 4733 telephone event (DTMF).
    public var isTelephoneEvent: Bool {
        encodingName.lowercased() == "telephone-event"
    }

    /// The RFC 3551 static assignment of `payloadType` (Tables 4 and 5), `nil` for dynamic and
    /// unassigned types.
    public static func staticFormat(payloadType: UInt8) -> PayloadFormat? {
        StaticPayloadAssignment(payloadType: payloadType).map {
            PayloadFormat(encodingName: $0.encodingName, clockRate: $0.clockRate)
        }
    }
}

/// The payload formats learned from the SDP bodies of a capture, per announced endpoint, as
/// Wireshark applies them: to RTP sent to or from the `c=` address and `m=` port.
struct PayloadFormatDirectory {
    private var formats: [UDPEndpoint: [UInt8: PayloadFormat]] = [:]
    private var keys: [UDPEndpoint: SDESCryptoAttribute] = [:]

    /// Whether `endpoint` was announced in an SDP body.
    func isAnnounced(_ endpoint: UDPEndpoint) -> Bool {
        formats[endpoint] != nil
    }

    /// Takes in one announced media section; a later announcement of the same endpoint
    /// (a re-INVITE, the answer) adds to and overrides the earlier one.
    mutating func learn(_ media: AnnouncedMedia) {
        formats[media.endpoint, default: [:]].merge(media.formats) { _, new in new }
        if let crypto = media.cryptoAttributes.first {
            keys[media.endpoint] = crypto
        }
    }

    /// The format of `payloadType` in a packet between `source` and `destination`: the
    /// destination's announcement first, then the source's, then the static table.
    func format(of payloadType: UInt8, from source: UDPEndpoint, to destination: UDPEndpoint) -> PayloadFormat? {
        if payloadType < 96, let known = PayloadFormat.staticFormat(payloadType: payloadType) {
            return formats[destination]?[payloadType] ?? formats[source]?[payloadType] ?? known
        }
        return formats[destination]?[payloadType] ?? formats[source]?[payloadType]
    }

    /// The SDES key announced for the flow between `source` and `destination`, if any: the
    /// sender's own `a=crypto` line keys what it sends (RFC 4568 §6.1).
    func announcedKey(from source: UDPEndpoint, to destination: UDPEndpoint) -> SDESCryptoAttribute? {
        keys[source] ?? keys[destination]
    }
}
