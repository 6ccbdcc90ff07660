import RTP

extension SessionDescription {
    /// Parses SDP text (CRLF or LF line ends) strictly, as a party to an offer/answer exchange
    /// must. Lines the audio path does not use (`i=`, `b=`, `k=`, …) are skipped; anything
    /// malformed in the lines it does use throws an ``SDPError`` naming the line. An `a=crypto`
    /// line this library cannot read (unknown suite, bad key) is left out, not an error.
    public init(parsing text: some StringProtocol) throws(SDPError) {
        var parser = SDPParser(lenient: false)
        for (number, line) in Self.numberedLines(text) {
            try parser.consume(line, number: number)
        }
        self = try parser.finish()
    }

    /// Reads whatever SDP text holds, forgivingly, as an observer of someone else's exchange
    /// (a capture analyzer) must: a line that does not parse is skipped, payload types out of
    /// range are dropped from their `m=` line, and `v=`, `o=` and `s=` may be missing (the
    /// origin is then `- 0 0 IN IP4 0.0.0.0`). Never throws and never traps.
    public init(scanning text: some StringProtocol) {
        var parser = SDPParser(lenient: true)
        for (number, line) in Self.numberedLines(text) {
            try? parser.consume(line, number: number)
        }
        self = parser.finishLeniently()
    }

    /// The non-empty lines of `text` (CRLF or LF ends) with their 1-based numbers.
    private static func numberedLines(_ text: some StringProtocol) -> [(number: Int, line: String)] {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated()
            .filter { !$0.element.isEmpty }
            .map { (number: $0.offset + 1, line: String($0.element)) }
    }
}

/// Reads an SDP description one line at a time, strictly (the first malformed line throws) or
/// leniently (the caller skips lines that throw).
private struct SDPParser {
    /// Whether the caller skips malformed lines and the description may lack `v=`, `o=`, `s=`.
    let lenient: Bool
    private var sawVersion = false
    private var origin: SDPOrigin?
    private var sessionName: String?
    private var connection: SDPConnection?
    private var attributes: [SDPAttribute] = []
    private var media: [MediaDescription] = []
    private var lineNumber = 0
    private var lineText = ""

    mutating func consume(_ line: String, number: Int) throws(SDPError) {
        lineNumber = number
        lineText = line
        let characters = Array(line.utf8)
        guard characters.count >= 2, characters[1] == UInt8(ascii: "=") else {
            throw fail("expected '<type>=<value>'")
        }
        let value = String(line.dropFirst(2))
        switch characters[0] {
        case UInt8(ascii: "v"):
            guard !sawVersion, number == 1 || origin == nil, value == "0" else {
                throw fail("only 'v=0' is supported, and it must come first")
            }
            sawVersion = true
        case UInt8(ascii: "o"):
            try requireVersion()
            origin = try parseOrigin(value)
        case UInt8(ascii: "s"):
            try requireVersion()
            sessionName = value
        case UInt8(ascii: "c"):
            try requireVersion()
            let parsed = try parseConnection(value)
            if media.isEmpty { connection = parsed } else { media[media.count - 1].connection = parsed }
        case UInt8(ascii: "m"):
            try requireVersion()
            media.append(try parseMediaLine(value))
        case UInt8(ascii: "a"):
            try requireVersion()
            let attribute = parseAttribute(value)
            if media.isEmpty { attributes.append(attribute) } else { try apply(attribute, to: &media[media.count - 1]) }
        case UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "z"), UInt8(ascii: "i"), UInt8(ascii: "u"),
            UInt8(ascii: "e"), UInt8(ascii: "p"), UInt8(ascii: "b"), UInt8(ascii: "k"):
            try requireVersion()
        default:
            throw fail("unknown line type '\(line.prefix(1))'")
        }
    }

    init(lenient: Bool) {
        self.lenient = lenient
    }

    func finishLeniently() -> SessionDescription {
        SessionDescription(
            origin: origin ?? SDPOrigin(sessionID: 0, sessionVersion: 0, address: SDPConnection(address: "0.0.0.0")),
            sessionName: sessionName ?? "-", connection: connection, attributes: attributes, media: media
        )
    }

    func finish() throws(SDPError) -> SessionDescription {
        guard sawVersion else { throw SDPError(reason: "no 'v=0' line") }
        guard let origin else { throw SDPError(reason: "no 'o=' line") }
        guard let sessionName else { throw SDPError(reason: "no 's=' line") }
        return SessionDescription(
            origin: origin, sessionName: sessionName, connection: connection,
            attributes: attributes, media: media
        )
    }

    private func fail(_ reason: String) -> SDPError {
        SDPError(line: lineNumber, text: lineText, reason: reason)
    }

    private func requireVersion() throws(SDPError) {
        if !sawVersion, !lenient { throw fail("the description must start with 'v=0'") }
    }

    private func fields(_ value: String) -> [String] {
        value.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    }

    private func parseOrigin(_ value: String) throws(SDPError) -> SDPOrigin {
        let parts = fields(value)
        guard parts.count == 6 else { throw fail("expected 6 fields: username id version IN IP4|IP6 address") }
        guard let id = UInt64(parts[1]), let version = UInt64(parts[2]) else {
            throw fail("session id and version must be unsigned numbers")
        }
        let address = try parseAddress(network: parts[3], type: parts[4], address: parts[5])
        return SDPOrigin(username: parts[0], sessionID: id, sessionVersion: version, address: address)
    }

    private func parseConnection(_ value: String) throws(SDPError) -> SDPConnection {
        let parts = fields(value)
        guard parts.count == 3 else { throw fail("expected 'IN IP4|IP6 address'") }
        // A multicast TTL or address count follows a slash; the audio path only needs the address
        // (empty when the field starts with one, refused below).
        let address = String(parts[2].prefix { $0 != "/" })
        return try parseAddress(network: parts[0], type: parts[1], address: address)
    }

    private func parseAddress(network: String, type: String, address: String) throws(SDPError) -> SDPConnection {
        guard network == "IN" else { throw fail("network type '\(network)' is not IN") }
        guard !address.isEmpty else { throw fail("empty address") }
        switch type {
        case "IP4": return SDPConnection(address: address, isIPv6: false)
        case "IP6": return SDPConnection(address: address, isIPv6: true)
        default: throw fail("address type '\(type)' is not IP4 or IP6")
        }
    }

    private func parseMediaLine(_ value: String) throws(SDPError) -> MediaDescription {
        let parts = fields(value)
        guard parts.count >= 4 else { throw fail("expected 'media port transport format…'") }
        // A port count may follow a slash.
        let portText = parts[1].prefix { $0 != "/" }
        guard let port = Int(portText), (0...65535).contains(port) else {
            throw fail("port '\(parts[1])' is not a number from 0 to 65535")
        }
        var payloadTypes: [Int] = []
        if parts[2].contains("RTP/") {
            for format in parts[3...] {
                guard let payloadType = Int(format), (0...127).contains(payloadType) else {
                    if lenient { continue }
                    throw fail("payload type '\(format)' is not a number from 0 to 127")
                }
                payloadTypes.append(payloadType)
            }
        }
        return MediaDescription(
            media: parts[0], port: port, transport: parts[2], payloadTypes: payloadTypes, formats: Array(parts[3...])
        )
    }

    private func parseAttribute(_ value: String) -> SDPAttribute {
        guard let colon = value.firstIndex(of: ":") else { return SDPAttribute(value) }
        return SDPAttribute(String(value[..<colon]), String(value[value.index(after: colon)...]))
    }

    private func apply(_ attribute: SDPAttribute, to section: inout MediaDescription) throws(SDPError) {
        if let direction = MediaDirection(rawValue: attribute.name), attribute.value == nil {
            section.direction = direction
            return
        }
        switch (attribute.name, attribute.value) {
        case let ("rtpmap", value?):
            let (payloadType, rest) = try payloadTypeAndRest(value)
            section.rtpMaps[payloadType] = try parseRTPMap(rest)
        case let ("fmtp", value?):
            let (payloadType, rest) = try payloadTypeAndRest(value)
            section.formatParameters[payloadType] = rest
        case let ("ptime", value?):
            section.packetTimeMilliseconds = try milliseconds(value, attribute: "ptime")
        case let ("maxptime", value?):
            section.maximumPacketTimeMilliseconds = try milliseconds(value, attribute: "maxptime")
        case let ("rtcp", value?):
            let portText = fields(value).first ?? ""
            guard let port = Int(portText), (1...65535).contains(port) else {
                throw fail("rtcp port '\(portText)' is not a number from 1 to 65535")
            }
            section.rtcpPort = port
        case ("rtcp-mux", nil):
            section.rtcpMux = true
        case let ("crypto", value?):
            if let crypto = try? SDESCryptoAttribute(attributeValue: value) { section.crypto.append(crypto) }
        default:
            section.otherAttributes.append(attribute)
        }
    }

    private func payloadTypeAndRest(_ value: String) throws(SDPError) -> (Int, String) {
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2 else { throw fail("expected '<payload type> <value>'") }
        guard let payloadType = Int(parts[0]), (0...127).contains(payloadType) else {
            throw fail("payload type '\(parts[0])' is not a number from 0 to 127")
        }
        return (payloadType, String(parts[1]))
    }

    private func parseRTPMap(_ value: String) throws(SDPError) -> RTPMap {
        let parts = value.split(separator: "/", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), !parts[0].isEmpty else {
            throw fail("expected '<encoding>/<clock rate>[/<channels>]'")
        }
        guard let clockRate = Int(parts[1]), clockRate > 0, clockRate <= 1_000_000 else {
            throw fail("clock rate '\(parts[1])' is not a positive number")
        }
        var channels = 1
        if parts.count == 3 {
            guard let count = Int(parts[2]), (1...8).contains(count) else {
                throw fail("channel count '\(parts[2])' is not a number from 1 to 8")
            }
            channels = count
        }
        return RTPMap(encodingName: String(parts[0]), clockRate: clockRate, channels: channels)
    }

    private func milliseconds(_ value: String, attribute: String) throws(SDPError) -> Int {
        // Some endpoints write "20.0"; the fraction of a millisecond is meaningless here.
        let whole = value.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard whole.count <= 2, let milliseconds = Int(whole[0]), (1...1000).contains(milliseconds),
            whole.count == 1 || whole[1].allSatisfy(\.isNumber)
        else {
            throw fail("\(attribute) '\(value)' is not a duration from 1 to 1000 ms")
        }
        return milliseconds
    }
}
