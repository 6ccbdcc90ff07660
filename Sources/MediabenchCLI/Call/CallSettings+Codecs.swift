import Codecs

extension CallSettings {
    /// The encoder and decoder a call's sessions make for ``codec``, built the way the session
    /// builds them: from the SDP description both ends offer (``sdpCodec``, whose `a=fmtp` the
    /// sender obeys) through ``CodecRegistry``. For Opus that is 48 kHz mono PCM, in-band FEC
    /// sized for the registry's default expected loss (a session then sizes it from the loss the
    /// peer reports, see `LossAdaptation`), and the bitrate libopus picks (or the one given with
    /// `opus:BITRATE`); for G.711, 8 kHz with Appendix I concealment.
    ///
    /// `mediabench simulate --codec` encodes and decodes with these, so that what it plays is
    /// what the callee of `mediabench call` would hear on the same network.
    func makeCodecs(packetTimeMilliseconds: Int) throws(CodecRegistryError) -> (encoder: any AudioEncoder, decoder: any AudioDecoder) {
        let map = sdpCodec.map
        let rtpmap = "\(map.encodingName)/\(map.clockRate)" + (map.channels == 1 ? "" : "/\(map.channels)")
        let registry = CodecRegistry()
        let description = try registry.describe(
            rtpmap: rtpmap, fmtp: sdpCodec.formatParameters ?? "", ptime: packetTimeMilliseconds
        )
        return (try registry.makeEncoder(for: description), try registry.makeDecoder(for: description))
    }
}
