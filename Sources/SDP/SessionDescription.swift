/// An SDP session description (RFC 4566) as far as an audio call needs it: origin, session
/// name, connection, timing, session attributes and the media sections.
///
/// ``text`` is the SDP boundary: the only place SRTP keys of `a=crypto` lines are written out.
/// `description` (so `print` and string interpolation) redacts them.
public struct SessionDescription: Sendable, Equatable, CustomStringConvertible {
    /// The `o=` line.
    public var origin: SDPOrigin
    /// The `s=` line (`-` when there is nothing to say).
    public var sessionName: String
    /// The session-level `c=` line, used by media sections that have none of their own.
    public var connection: SDPConnection?
    /// Session-level attributes (`a=` lines before the first `m=`), in order.
    public var attributes: [SDPAttribute]
    /// The media sections, in order (`m=` lines and what follows each).
    public var media: [MediaDescription]

    /// A description with the given parts.
    public init(
        origin: SDPOrigin,
        sessionName: String = "-",
        connection: SDPConnection? = nil,
        attributes: [SDPAttribute] = [],
        media: [MediaDescription]
    ) {
        self.origin = origin
        self.sessionName = sessionName
        self.connection = connection
        self.attributes = attributes
        self.media = media
    }

    /// The first audio section, the one a voice call negotiates.
    public var audio: MediaDescription? { media.first { $0.media == "audio" } }

    /// The text form, lines ending in CRLF as RFC 4566 requires, with the SRTP keys of the
    /// `a=crypto` lines: send it only over a secure signalling channel and never log it.
    public var text: String { rendered(redactingKeys: false) }

    /// The text form with each `a=crypto` key replaced by `<redacted>`, for logs.
    public var description: String { rendered(redactingKeys: true) }

    private func rendered(redactingKeys: Bool) -> String {
        var lines = ["v=0", "o=\(origin.text)", "s=\(sessionName)"]
        if let connection { lines.append("c=\(connection.text)") }
        lines.append("t=0 0")
        lines += attributes.map { "a=\($0.text)" }
        for section in media { lines += section.lines(redactingKeys: redactingKeys) }
        return lines.map { $0 + "\r\n" }.joined()
    }
}

/// The `o=` line: who made the description and which version of it this is.
public struct SDPOrigin: Sendable, Equatable {
    /// The user name (`-` when none).
    public var username: String
    /// A numeric session identifier, unique for the originator.
    public var sessionID: UInt64
    /// Increases each time the description changes (a re-offer for hold, say).
    public var sessionVersion: UInt64
    /// The originator's address.
    public var address: SDPConnection

    /// An origin with the given fields.
    public init(username: String = "-", sessionID: UInt64, sessionVersion: UInt64, address: SDPConnection) {
        self.username = username
        self.sessionID = sessionID
        self.sessionVersion = sessionVersion
        self.address = address
    }

    var text: String { "\(username) \(sessionID) \(sessionVersion) \(address.text)" }
}

/// A `c=` line or the address part of `o=`: network type IN, IPv4 or IPv6, and the address.
public struct SDPConnection: Sendable, Equatable {
    /// Whether the address is IPv6 (`IP6`) rather than IPv4 (`IP4`).
    public var isIPv6: Bool
    /// The address as written (a literal address or a host name).
    public var address: String

    /// A connection to `address`; IPv6 when the literal contains a colon.
    public init(address: String) {
        self.address = address
        self.isIPv6 = address.contains(":")
    }

    /// A connection with an explicit address type.
    public init(address: String, isIPv6: Bool) {
        self.address = address
        self.isIPv6 = isIPv6
    }

    var text: String { "IN \(isIPv6 ? "IP6" : "IP4") \(address)" }
}

/// An `a=` line: a name and an optional value (`a=name:value` or the flag `a=name`).
public struct SDPAttribute: Sendable, Equatable {
    /// The attribute name, such as `rtpmap` or `sendonly`.
    public var name: String
    /// The text after the colon, or nil for a flag attribute.
    public var value: String?

    /// An attribute `name` with an optional `value`.
    public init(_ name: String, _ value: String? = nil) {
        self.name = name
        self.value = value
    }

    var text: String { value.map { "\(name):\($0)" } ?? name }
}
