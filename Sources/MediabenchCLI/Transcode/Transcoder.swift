import Codecs
import NetworkModel

/// What `mediabench transcode` does to a recording, offline: convert it to the codec's format,
/// encode 20 ms packets, drop packets at random (seeded), decode with concealment (and Opus FEC
/// from the next packet when asked), convert back, and line the result up with the input by
/// removing the codec's and resamplers' delay.
struct Transcoder {
    /// The codec and its settings.
    var codec: TranscodeCodec
    /// Opus complexity, 0–10.
    var complexity: Int
    /// Whether Opus adds in-band FEC and the decoder uses it.
    var forwardErrorCorrection: Bool
    /// How G.711 conceals lost packets.
    var g711Concealment: G711ConcealmentMethod
    /// The share of packets dropped, in percent.
    var lossPercent: Double
    /// The seed of the loss pattern.
    var seed: UInt64

    /// Packet duration, fixed at the usual 20 ms.
    static let frameMilliseconds = 20

    /// Counts of what happened to the packets.
    struct Summary: Equatable {
        var packets = 0
        var lost = 0
        var concealed = 0
        var recoveredByFEC = 0
        var payloadBytes = 0
        /// Algorithmic delay of the codec (frame + lookahead), in milliseconds.
        var algorithmicDelayMilliseconds = 0.0
    }

    func run(_ input: WAVAudio) throws -> (audio: WAVAudio, summary: Summary) {
        let codecFormat = codec.codecFormat(for: input.format)
        let samples = try Self.convert(input.samples, from: input.format, to: codecFormat)
        var (encoder, decoder) = try makeCodec(format: codecFormat)
        let frameSamples = encoder.samplesPerFrame * codecFormat.channels
        var summary = Summary()
        summary.algorithmicDelayMilliseconds = Double(encoder.algorithmicDelaySamples) * 1000 / Double(codecFormat.sampleRate)

        // Encode every frame (the last one padded with silence).
        var packets: [[UInt8]] = []
        var frame = [Int16](repeating: 0, count: frameSamples)
        var payload = [UInt8](repeating: 0, count: 4000)
        var start = 0
        while start < samples.count {
            let count = min(frameSamples, samples.count - start)
            frame.withUnsafeMutableBufferPointer { destination in
                for index in 0..<frameSamples { destination[index] = index < count ? samples[start + index] : 0 }
            }
            let written = try frame.withUnsafeBufferPointer { pcm in
                try payload.withUnsafeMutableBytes { try encoder.encode(pcm, into: $0) }
            }
            packets.append(Array(payload[0..<written]))
            summary.payloadBytes += written
            start += frameSamples
        }
        summary.packets = packets.count

        var generator = SeededGenerator(seed: seed)
        let lost = packets.map { _ in generator.nextBernoulli(lossPercent / 100) }
        summary.lost = lost.filter { $0 }.count

        var decoded: [Int16] = []
        decoded.reserveCapacity(packets.count * frameSamples)
        var output = [Int16](repeating: 0, count: frameSamples)
        let perChannel = encoder.samplesPerFrame
        for (index, packet) in packets.enumerated() {
            let produced = try output.withUnsafeMutableBufferPointer { pcm -> Int in
                if !lost[index] {
                    return try packet.withUnsafeBytes { try decoder.decode($0, into: pcm) }
                }
                let next = index + 1
                if forwardErrorCorrection, next < packets.count, !lost[next],
                    packets[next].withUnsafeBytes({ decoder.carriesForwardErrorCorrection(in: $0) })
                {
                    summary.recoveredByFEC += 1
                    return try packets[next].withUnsafeBytes {
                        try decoder.decodeFEC(from: $0, samplesPerChannel: perChannel, into: pcm)
                    }
                }
                summary.concealed += 1
                return try decoder.decode(lost: perChannel, into: pcm)
            }
            decoded += output[0..<(produced * codecFormat.channels)]
        }

        let lookahead = encoder.algorithmicDelaySamples - encoder.samplesPerFrame
        var result = try Self.convert(Array(decoded.dropFirst(lookahead * codecFormat.channels)), from: codecFormat, to: input.format)
        result = Array(result.prefix(input.samples.count))
        result += [Int16](repeating: 0, count: input.samples.count - result.count)
        return (WAVAudio(format: input.format, samples: result), summary)
    }

    private func makeCodec(format: AudioFormat) throws -> (any AudioEncoder, any AudioDecoder) {
        switch codec {
        case let .g711(law):
            return (
                try G711Encoder(law: law, frameDurationMilliseconds: Self.frameMilliseconds),
                G711Decoder(law: law, concealment: g711Concealment)
            )
        case let .opus(bitrate):
            var configuration = OpusEncoderConfiguration(format: format)
            configuration.bitrate = bitrate.map(OpusBitrate.bitsPerSecond) ?? .automatic
            configuration.complexity = complexity
            configuration.inbandFEC = forwardErrorCorrection
            // libopus sizes its FEC by the loss it expects; it adds none when told 0.
            configuration.expectedPacketLossPercent = forwardErrorCorrection ? max(1, Int(lossPercent.rounded(.up))) : 0
            return (try OpusEncoder(configuration: configuration), try OpusDecoder(format: format))
        }
    }

    /// Converts interleaved `samples` between formats: channels by averaging or duplicating,
    /// rate with the speexdsp resampler, whose delay is removed so the audio stays aligned.
    static func convert(_ samples: [Int16], from source: AudioFormat, to target: AudioFormat) throws -> [Int16] {
        var audio = Self.mixChannels(samples, from: source.channels, to: target.channels)
        guard source.sampleRate != target.sampleRate else { return audio }
        let resampler = try Resampler(
            from: AudioFormat(sampleRate: source.sampleRate, channels: target.channels),
            toSampleRate: target.sampleRate, frameMilliseconds: Self.frameMilliseconds)
        let inputFrame = resampler.inputSamplesPerFrame * target.channels
        let outputFrame = resampler.outputSamplesPerFrame * target.channels
        // Extra silence flushes the resampler's delay out at the end.
        let padded = (audio.count + resampler.inputLatencySamples * target.channels + inputFrame - 1) / inputFrame * inputFrame
        audio += [Int16](repeating: 0, count: padded - audio.count)
        var result: [Int16] = []
        result.reserveCapacity(padded / inputFrame * outputFrame)
        var chunk = [Int16](repeating: 0, count: outputFrame)
        for start in stride(from: 0, to: audio.count, by: inputFrame) {
            let written = try audio[start..<(start + inputFrame)].withUnsafeBufferPointer { frame in
                try chunk.withUnsafeMutableBufferPointer { try resampler.process(frame, into: $0) }
            }
            result += chunk[0..<(written * target.channels)]
        }
        return Array(result.dropFirst(resampler.outputLatencySamples * target.channels))
    }

    /// Averages or duplicates channels (only 1 ↔ 2 are ever needed here).
    private static func mixChannels(_ samples: [Int16], from sourceChannels: Int, to targetChannels: Int) -> [Int16] {
        guard sourceChannels != targetChannels else { return samples }
        if targetChannels == 1 {
            return stride(from: 0, to: samples.count - sourceChannels + 1, by: sourceChannels).map { start in
                let sum = samples[start..<(start + sourceChannels)].reduce(0) { $0 + Int($1) }
                return Int16(sum / sourceChannels)
            }
        }
        return samples.flatMap { [Int16](repeating: $0, count: targetChannels) }
    }
}
