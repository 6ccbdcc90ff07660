import Codecs

/// The codec `mediabench transcode` runs: `pcmu`, `pcma`, or `opus[:BITRATE]`.
enum TranscodeCodec: Equatable, CustomStringConvertible {
    case g711(G711Law)
    case opus(bitsPerSecond: Int?)

    /// Parses `pcmu`, `pcma`, `opus` or `opus:24000`.
    init(parsing text: String) throws(UsageError) {
        let parts = text.lowercased().split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        switch (parts[0], parts.count) {
        case ("pcmu", 1): self = .g711(.muLaw)
        case ("pcma", 1): self = .g711(.aLaw)
        case ("opus", 1): self = .opus(bitsPerSecond: nil)
        case ("opus", 2):
            guard let bitrate = Int(parts[1]), OpusBitrate.supportedBitsPerSecond.contains(bitrate) else {
                let range = OpusBitrate.supportedBitsPerSecond
                throw UsageError("--codec: Opus bitrate '\(parts[1])' is not a number from \(range.lowerBound) to \(range.upperBound) bit/s")
            }
            self = .opus(bitsPerSecond: bitrate)
        default:
            throw UsageError("--codec: expected pcmu, pcma or opus[:BITRATE], got '\(text)'")
        }
    }

    /// The rates libopus encodes natively.
    static let opusRates: Set<Int> = [8000, 12000, 16000, 24000, 48000]

    /// The PCM format the codec works in for an input of `input`: G.711 is 8 kHz mono; Opus
    /// keeps a native input rate (else 48 kHz) and at most two channels.
    func codecFormat(for input: AudioFormat) -> AudioFormat {
        switch self {
        case .g711:
            AudioFormat(sampleRate: 8000, channels: 1)
        case .opus:
            AudioFormat(
                sampleRate: Self.opusRates.contains(input.sampleRate) ? input.sampleRate : 48000,
                channels: min(input.channels, 2))
        }
    }

    var description: String {
        switch self {
        case let .g711(law): law.encodingName
        case let .opus(bitrate): "opus" + (bitrate.map { " \($0) bit/s" } ?? "")
        }
    }
}
