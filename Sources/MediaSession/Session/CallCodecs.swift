import Codecs

/// The encoder and decoder of the negotiated codec, checked against the 10 ms audio clock.
struct CallCodecs {
    var encoder: any AudioEncoder
    var decoder: any AudioDecoder

    init(media: NegotiatedAudio) throws(MediaSessionError) {
        let map = media.sendCodec.map
        let rtpmap = map.channels == 1 ? "\(map.encodingName)/\(map.clockRate)" : "\(map.encodingName)/\(map.clockRate)/\(map.channels)"
        guard media.packetTimeMilliseconds > 0, media.packetTimeMilliseconds % 10 == 0 else {
            throw .negotiation("ptime \(media.packetTimeMilliseconds) ms is not a multiple of the 10 ms audio clock")
        }
        do {
            let description = try CodecRegistry().describe(
                rtpmap: rtpmap, fmtp: media.sendCodec.formatParameters ?? "", ptime: media.packetTimeMilliseconds
            )
            encoder = try CodecRegistry().makeEncoder(for: description)
            decoder = try CodecRegistry().makeDecoder(for: description)
        } catch {
            throw .negotiation("\(rtpmap): \(error)")
        }
        guard decoder.format.channels == encoder.format.channels else {
            throw .negotiation("\(rtpmap): the peer sends \(decoder.format.channels) channels, we capture \(encoder.format.channels)")
        }
    }
}
