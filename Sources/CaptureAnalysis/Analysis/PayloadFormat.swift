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
    private var keys: [UDPEndpoint: [SDESCryptoAttribute]] = [:]
    private var callIDs: [UDPEndpoint: String] = [:]

    /// Whether `endpoint` was announced in an SDP body.
    func isAnnounced(_ endpoint: UDPEndpoint) -> Bool {
        formats[endpoint] != nil
    }

    /// Takes in one announced media section of the SIP message with `callID`; a later
    /// announcement of the same endpoint (a re-INVITE, the answer) adds to and overrides the
    /// earlier one.
    mutating func learn(_ media: AnnouncedMedia, callID: String?) {
        if let callID { callIDs[media.endpoint] = callID }
        formats[media.endpoint, default: [:]].merge(media.formats) { _, new in new }
        if !media.cryptoAttributes.isEmpty {
            keys[media.endpoint] = media.cryptoAttributes
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

    /// The RFC 4733 telephone-event formats of packets between `source` and `destination`,
    /// by payload type in ascending order: every payload type either endpoint announced that
    /// resolves (``format(of:from:to:)``) to `telephone-event`.
    func telephoneEventFormats(from source: UDPEndpoint, to destination: UDPEndpoint) -> [(payloadType: UInt8, format: PayloadFormat)] {
        let announced = Set(formats[destination, default: [:]].keys).union(formats[source, default: [:]].keys)
        return announced.sorted().compactMap { payloadType in
            guard let format = format(of: payloadType, from: source, to: destination), format.isTelephoneEvent else { return nil }
            return (payloadType, format)
        }
    }

    /// The Call-ID of the SIP dialog that announced either endpoint of the flow, if any.
    func callID(from source: UDPEndpoint, to destination: UDPEndpoint) -> String? {
        callIDs[destination] ?? callIDs[source]
    }

    /// The SDES key that keys what `source` sends to `destination`, following the offer/answer
    /// (RFC 4568 §6.1, §7.1): the sender's own `a=crypto` lines key what it sends; of several
    /// (an offer), the one whose tag the other side's single line (the answer) accepted. `nil`
    /// when the sender announced no key (its direction is plain RTP, whatever the other side
    /// announced), and when the other side's SDP carried no `a=crypto` line: the answer
    /// declined SRTP (a best-effort offer), so both directions are plain.
    func announcedKey(from source: UDPEndpoint, to destination: UDPEndpoint) -> SDESCryptoAttribute? {
        guard let offered = keys[source], let first = offered.first else { return nil }
        if isAnnounced(destination), keys[destination] == nil { return nil }
        guard offered.count > 1, let answer = keys[destination], answer.count == 1 else { return first }
        return offered.first { $0.tag == answer[0].tag } ?? first
    }

    /// The key of RTCP sent from `source` to `destination`: the key of the RTP flow on the same
    /// ports (RTCP multiplexed, RFC 5761), else on the ports one below (RTCP on RTP + 1).
    func announcedRTCPKey(from source: UDPEndpoint, to destination: UDPEndpoint) -> SDESCryptoAttribute? {
        if let key = announcedKey(from: source, to: destination) { return key }
        guard source.port & 1 == 1, destination.port & 1 == 1 else { return nil }
        var rtpSource = source
        var rtpDestination = destination
        rtpSource.port -= 1
        rtpDestination.port -= 1
        return announcedKey(from: rtpSource, to: rtpDestination)
    }
}
