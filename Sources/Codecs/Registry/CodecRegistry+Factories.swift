extension CodecRegistry {
    /// The frame duration an encoder uses when the description names no `ptime`.
    public static let defaultPacketTimeMilliseconds = 20

    /// An encoder for `description`, framed by its `ptime` (20 ms when absent).
    public func makeEncoder(for description: CodecDescription) throws(CodecRegistryError) -> any AudioEncoder {
        let packetTime = description.packetTimeMilliseconds ?? Self.defaultPacketTimeMilliseconds
        switch description.parameters {
        case let .g711(law):
            do {
                return try G711Encoder(law: law, frameDurationMilliseconds: packetTime)
            } catch {
                throw .invalidParameter(name: "ptime", value: String(packetTime), reason: error.description)
            }
        case .opus:
            throw Self.opusFactoryMissing
        }
    }

    /// A decoder for `description`; G.711 decoders conceal with ``g711Concealment``.
    public func makeDecoder(for description: CodecDescription) throws(CodecRegistryError) -> any AudioDecoder {
        switch description.parameters {
        case let .g711(law):
            return G711Decoder(law: law, concealment: g711Concealment)
        case .opus:
            throw Self.opusFactoryMissing
        }
    }

    // OPUS FACTORY — the one place the Opus encoder and decoder join the registry. Replace the
    // two `throw Self.opusFactoryMissing` above with the Opus types built from `OpusParameters`
    // (`maximumPlaybackRate` → bandwidth, `maximumAverageBitrate` → bitrate, `inBandFEC`,
    // `discontinuousTransmission`, `constantBitrate`, `stereo`, and the packet time), then delete
    // this error.
    private static let opusFactoryMissing = CodecRegistryError.codecUnavailable(
        "the Opus encoder and decoder are not joined to the registry yet"
    )
}
