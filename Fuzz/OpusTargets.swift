import Codecs

extension FuzzTarget {
    /// The Opus fuzz targets.
    static let opus: [FuzzTarget] = [opusPacket]

    /// Inspects random bytes as an Opus packet and decodes them with a fresh decoder (normally,
    /// as FEC for a lost frame, and then concealing). The first byte picks the decoder's rate and
    /// channels; the rest is the packet. Besides never trapping, inspection and decoding must
    /// agree: a packet the inspector accepts decodes to exactly the duration it reported, and one
    /// it rejects fails to decode.
    static let opusPacket = FuzzTarget(name: "opus-packet") { bytes in
        guard let selector = bytes.first else { return }
        let rates = [8000, 12_000, 16_000, 24_000, 48_000]
        let format = AudioFormat(sampleRate: rates[Int(selector) % rates.count], channels: Int(selector >> 7) + 1)
        let packet = UnsafeRawBufferPointer(rebasing: bytes.dropFirst())
        guard let decoder = try? OpusDecoder(format: format) else { preconditionFailure("valid format refused") }
        let info = try? OpusPacketInfo(packet)
        withUnsafeTemporaryAllocation(of: Int16.self, capacity: 5760 * 2) { pcm in
            let decoded = try? decoder.decode(packet, into: pcm)
            if let info {
                precondition(decoded == info.samplesPerChannel(sampleRate: format.sampleRate), "inspector and decoder disagree")
            } else {
                precondition(decoded == nil, "decoder accepted a packet the inspector rejected")
            }
            let lost = (info?.samplesPerChannel(sampleRate: format.sampleRate)).flatMap { $0 > 0 ? $0 : nil } ?? format.sampleRate / 50
            _ = try? decoder.decodeFEC(from: packet, samplesPerChannel: lost, into: pcm)
            _ = try? decoder.decode(lost: lost, into: pcm)
        }
    }
}
