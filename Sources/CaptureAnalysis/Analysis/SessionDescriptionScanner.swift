import QualityMetrics
import PlayoutLab
import Capture
import RTP
import SDP

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
/// A small, forgiving SIP reader (the request or status line and where the body starts); the
/// SDP body goes to the SDP module's scanner, the parser the media session uses too, which
/// learns ports, dynamic payload types, clock rates and keys. Lines may end in CRLF or LF;
/// anything it does not understand is skipped; it never traps, whatever the bytes are.
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

    /// The media sections of an SDP body (RFC 8866), in order, read by the SDP module's
    /// forgiving scanner (`SessionDescription(scanning:)`). Sections whose address
    /// cannot be read are left out.
    public static func announcedMedia(inSDP sdp: UnsafeRawBufferPointer) -> [AnnouncedMedia] {
        let description = SessionDescription(scanning: String(decoding: sdp, as: UTF8.self))
        return description.media.compactMap { section in
            guard let text = (section.connection ?? description.connection)?.address, let address = IPAddress(text),
                let port = UInt16(exactly: section.port)
            else { return nil }
            var formats: [UInt8: PayloadFormat] = [:]
            for (payloadType, map) in section.rtpMaps {
                formats[UInt8(payloadType)] = PayloadFormat(encodingName: map.encodingName, clockRate: UInt32(map.clockRate))
            }
            return AnnouncedMedia(
                mediaType: section.media, endpoint: UDPEndpoint(address: address, port: port), transport: section.transport,
                payloadTypes: section.payloadTypes.map { UInt8($0) }, formats: formats, cryptoAttributes: section.crypto
            )
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
}
