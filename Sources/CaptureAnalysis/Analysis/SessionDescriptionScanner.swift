import QualityMetrics
import PlayoutLab
import Capture
import RTP

/// One media section (`m=` line) of an SDP body found in a captured SIP message: where the
/// party wants to receive it, and the payload formats and SRTP keys it announced.
public struct AnnouncedMedia: Sendable, Equatable {
    /// The media type of the `m=` line (`audio`, `video`, …).
    public var mediaType: String
    /// The connection address (`c=`, media level before session level) and the `m=` port.
    public var endpoint: UDPEndpoint
    /// The transport protocol of the `m=` line (`RTP/AVP`, `RTP/SAVP`, …).
    public var transport: String
    /// The payload types listed on the `m=` line, in order.
    public var payloadTypes: [UInt8]
    /// Encoding name and clock rate of every payload type with an `a=rtpmap` line.
    public var formats: [UInt8: PayloadFormat]
    /// The `a=crypto` lines (RFC 4568) of the section that parse, in order; their
    /// descriptions redact the keys.
    public var cryptoAttributes: [SDESCryptoAttribute]
}

/// Finds SIP messages in UDP payloads and reads the media sections of their SDP bodies.
///
/// A small, forgiving scanner rather than a full SIP/SDP parser: it needs only the `c=`, `m=`,
/// `a=rtpmap` and `a=crypto` lines to learn ports, dynamic payload types, clock rates and keys.
/// Lines may end in CRLF or LF; anything it does not understand is skipped. It reads the bytes in
/// place and never traps, whatever they are.
public enum SessionDescriptionScanner {
    /// Whether `payload` starts like a SIP message: a status line (`SIP/2.0 200 OK`) or a request
    /// line (`INVITE sip:bob@example.com SIP/2.0`) whose method is an upper-case token.
    public static func isSIPMessage(_ payload: UnsafeRawBufferPointer) -> Bool {
        let firstLine = line(in: payload, from: 0).text
        if firstLine.starts(with: Array("SIP/2.0 ".utf8)) { return true }
        guard let space = firstLine.firstIndex(of: UInt8(ascii: " ")), space > firstLine.startIndex else {
            return false
        }
        let method = firstLine[firstLine.startIndex..<space]
        guard method.allSatisfy({ (0x41...0x5A).contains($0) || $0 == UInt8(ascii: "-") }) else { return false }
        return firstLine.count > method.count + 8 && firstLine.suffix(8).elementsEqual(" SIP/2.0".utf8)
    }

    /// The media sections of the SDP body of the SIP message in `payload`, or an empty list when
    /// the message has no SDP body (or is not SIP at all).
    public static func announcedMedia(inSIPMessage payload: UnsafeRawBufferPointer) -> [AnnouncedMedia] {
        guard isSIPMessage(payload), let body = bodyOffset(payload) else { return [] }
        return announcedMedia(inSDP: UnsafeRawBufferPointer(rebasing: payload[body...]))
    }

    /// The media sections of an SDP body (RFC 8866), in order. Sections whose address or port
    /// cannot be read are left out.
    public static func announcedMedia(inSDP sdp: UnsafeRawBufferPointer) -> [AnnouncedMedia] {
        var sessionAddress: IPAddress?
        var sections: [(media: AnnouncedMedia, address: IPAddress?)] = []
        var offset = 0
        while offset < sdp.count {
            let (text, next) = line(in: sdp, from: offset)
            offset = next
            guard text.count >= 2, text[text.startIndex + 1] == UInt8(ascii: "=") else { continue }
            let value = String(decoding: text.dropFirst(2), as: UTF8.self)
            switch text[text.startIndex] {
            case UInt8(ascii: "c"):
                let address = connectionAddress(value)
                if sections.isEmpty { sessionAddress = address } else { sections[sections.count - 1].address = address }
            case UInt8(ascii: "m"):
                if let media = mediaLine(value) { sections.append((media, nil)) }
            case UInt8(ascii: "a") where !sections.isEmpty:
                attribute(value, into: &sections[sections.count - 1].media)
            default:
                continue
            }
        }
        return sections.compactMap { section in
            guard let address = section.address ?? sessionAddress else { return nil }
            var media = section.media
            media.endpoint.address = address
            return media
        }
    }

    /// Where the body starts: after the first empty line.
    private static func bodyOffset(_ payload: UnsafeRawBufferPointer) -> Int? {
        var offset = 0
        while offset < payload.count {
            let (text, next) = line(in: payload, from: offset)
            if text.isEmpty { return next < payload.count ? next : nil }
            offset = next
        }
        return nil
    }

    /// The line starting at `offset` without its CR/LF, and where the next one starts.
    private static func line(
        in bytes: UnsafeRawBufferPointer, from offset: Int
    ) -> (text: Slice<UnsafeRawBufferPointer>, next: Int) {
        let newline = bytes[offset...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        var end = newline
        if end > offset, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return (bytes[offset..<end], min(newline + 1, bytes.count))
    }

    /// `IN IP4 192.0.2.1` or `IN IP6 2001:db8::1` (a multicast `/ttl` suffix is dropped).
    private static func connectionAddress(_ value: String) -> IPAddress? {
        let words = value.split(separator: " ")
        guard words.count >= 3, words[0] == "IN" else { return nil }
        return IPAddress(String(words[2].prefix { $0 != "/" }))
    }

    /// `audio 49170 RTP/AVP 0 8 101` (a `/count` after the port is dropped).
    private static func mediaLine(_ value: String) -> AnnouncedMedia? {
        let words = value.split(separator: " ")
        guard words.count >= 3, let port = UInt16(words[1].prefix { $0 != "/" }) else { return nil }
        return AnnouncedMedia(
            mediaType: String(words[0]),
            endpoint: UDPEndpoint(address: .v4(IPv4Address(rawValue: 0)), port: port),
            transport: String(words[2]),
            payloadTypes: words.dropFirst(3).compactMap { UInt8($0) }.filter { $0 < 128 },
            formats: [:], cryptoAttributes: [])
    }

    /// `rtpmap:96 opus/48000/2` and `crypto:1 AES_CM_128_HMAC_SHA1_80 inline:KEY|2^20|1:4`.
    private static func attribute(_ value: String, into media: inout AnnouncedMedia) {
        if value.hasPrefix("rtpmap:") {
            let words = value.dropFirst("rtpmap:".count).split(separator: " ", maxSplits: 1)
            guard words.count == 2, let payloadType = UInt8(words[0]), payloadType < 128 else { return }
            let encoding = words[1].split(separator: "/")
            guard let name = encoding.first, !name.isEmpty else { return }
            let clockRate = encoding.count > 1 ? UInt32(encoding[1]) : nil
            media.formats[payloadType] = PayloadFormat(encodingName: String(name), clockRate: clockRate)
        } else if value.hasPrefix("crypto:"),
                  let crypto = try? SDESCryptoAttribute(attributeValue: value.dropFirst("crypto:".count)) {
            media.cryptoAttributes.append(crypto)
        }
    }
}
