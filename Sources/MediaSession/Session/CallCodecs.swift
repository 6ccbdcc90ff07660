import Codecs
import QualityMetrics

/// The encoder and decoder of the negotiated codec, checked against the 10 ms audio clock.
struct CallCodecs {
    var encoder: any AudioEncoder
    var decoder: any AudioDecoder
    /// The SDP encoding name, as negotiated.
    let encodingName: String

    init(media: NegotiatedAudio) throws(MediaSessionError) {
        let map = media.sendCodec.map
        encodingName = map.encodingName
        let rtpmap = map.channels == 1 ? "\(map.encodingName)/\(map.clockRate)" : "\(map.encodingName)/\(map.clockRate)/\(map.channels)"
        guard media.packetTimeMilliseconds > 0, media.packetTimeMilliseconds % 10 == 0 else {
            throw .negotiation(
                .unsupportedPacketTime(
                    milliseconds: media.packetTimeMilliseconds, codec: rtpmap, reason: "not a multiple of the 10 ms audio clock"
                ))
        }
        do {
            let description = try CodecRegistry().describe(
                rtpmap: rtpmap, fmtp: media.sendCodec.formatParameters ?? "", ptime: media.packetTimeMilliseconds
            )
            encoder = try CodecRegistry().makeEncoder(for: description)
            decoder = try CodecRegistry().makeDecoder(for: description)
        } catch {
            throw .codecRegistry(error)
        }
        guard decoder.format.channels == encoder.format.channels else {
            throw .codecRegistry(
                .unsupportedChannels(
                    codec: rtpmap, channels: decoder.format.channels, supported: encoder.format.channels
                ))
        }
    }

    /// The codec as the quality monitor rates it (E-model values looked up by name).
    func monitored(packetTimeMilliseconds: Int) -> MonitoredCodec {
        let lookahead = encoder.algorithmicDelaySamples - encoder.samplesPerFrame
        return MonitoredCodec(
            encodingName: encodingName, clockRate: encoder.rtpClockRate, packetDurationMilliseconds: Double(packetTimeMilliseconds),
            algorithmicDelayMilliseconds: Double(max(lookahead, 0)) * 1000 / Double(encoder.format.sampleRate)
        )
    }
}
