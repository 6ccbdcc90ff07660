extension CodecRegistry {
    /// The frame duration an encoder uses when the description names no `ptime`.
    public static let defaultPacketTimeMilliseconds = 20

    /// An encoder for `description`, framed by its `ptime` (20 ms when absent). Opus encodes
    /// 48 kHz PCM with the receiver's RFC 7587 parameters applied.
    public func makeEncoder(for description: CodecDescription) throws(CodecRegistryError) -> any AudioEncoder {
        let packetTime = description.packetTimeMilliseconds ?? Self.defaultPacketTimeMilliseconds
        switch description.parameters {
        case let .g711(law):
            do {
                return try G711Encoder(law: law, frameDurationMilliseconds: packetTime)
            } catch {
                throw .invalidParameter(name: "ptime", value: String(packetTime), reason: error.description)
            }
        case let .opus(parameters):
            do {
                let configuration = try OpusEncoderConfiguration(receiverParameters: parameters, packetTimeMilliseconds: packetTime)
                return try OpusEncoder(configuration: configuration)
            } catch {
                throw .invalidParameter(name: "opus", value: parameters.fmtp, reason: error.description)
            }
        }
    }

    /// A decoder for `description`; G.711 decoders conceal with ``g711Concealment``.
    public func makeDecoder(for description: CodecDescription) throws(CodecRegistryError) -> any AudioDecoder {
        switch description.parameters {
        case let .g711(law):
            return G711Decoder(law: law, concealment: g711Concealment)
        case let .opus(parameters):
            // 48 kHz output; stereo only when the sender says it sends stereo (sprop-stereo).
            let format = AudioFormat(sampleRate: 48_000, channels: parameters.senderStereo ? 2 : 1)
            do {
                return try OpusDecoder(format: format)
            } catch {
                throw .invalidParameter(name: "opus", value: parameters.fmtp, reason: error.description)
            }
        }
    }
}
