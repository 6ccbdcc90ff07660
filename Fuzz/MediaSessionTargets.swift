@_spi(Fuzzing) import MediaSession
import RTP

extension FuzzTarget {
    /// The MediaSession module's fuzz targets.
    static let mediaSession: [FuzzTarget] = [sdp, sessionReceive, sessionReceiveSRTP]

    /// SDP text (any bytes, decoded leniently as UTF-8) through the forgiving scanner, the
    /// strict parser and, when it parses, through an answer: errors are fine, traps are not.
    static let sdp = FuzzTarget(name: "sdp") { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        _ = SessionDescription(scanning: text).text
        guard let offer = try? SessionDescription(parsing: text) else { return }
        _ = offer.text
        let key = SDESKeyParameter(masterKey: .random(for: .aes128CounterModeHMACSHA1Tag80))
        let crypto = (try? SDESCryptoAttribute(tag: 1, key: key)).map { [$0] } ?? []
        let local = LocalAudioCapabilities(address: "127.0.0.1", rtpPort: 4000, crypto: crypto)
        _ = try? MediaNegotiation.answer(to: offer, with: local)
        _ = try? MediaNegotiation.apply(answer: offer, toOfferFrom: local)
    }

    /// Any bytes as one datagram through a live session's receive path (demultiplexing, RTP
    /// and RTCP parsing, latching, SSRC checks, DTMF, statistics, jitter buffer), plain RTP:
    /// every datagram is counted and dropped or played, never a trap.
    static let sessionReceive = FuzzTarget(name: "session-receive") { bytes in
        ReceivePathFuzzing.receive(bytes, srtp: false)
    }

    /// As `session-receive`, through SRTP (AES-CM) first: forged tags and replays are refused.
    static let sessionReceiveSRTP = FuzzTarget(name: "session-receive-srtp") { bytes in
        ReceivePathFuzzing.receive(bytes, srtp: true)
    }
}
