import Codecs
import Testing

extension OpusTestAudio {
    /// Runs a whole signal through an encoder, keeping every packet.
    static func encodeAll(_ pcm: [Int16], with encoder: OpusEncoder) throws -> [[UInt8]] {
        let step = encoder.samplesPerFrame * encoder.format.channels
        var buffer = [UInt8](repeating: 0, count: OpusEncoder.maximumPacketBytes)
        return try stride(from: 0, through: pcm.count - step, by: step).map { start in
            let bytes = try pcm[start..<start + step].withUnsafeBufferPointer { frame in
                try buffer.withUnsafeMutableBytes { try encoder.encode(frame, into: $0) }
            }
            return Array(buffer[..<bytes])
        }
    }

    /// How a receiver fills one frame.
    enum Reception {
        case received
        case concealed
        case recoveredByFEC
    }

    /// Decodes `packets` into one signal, filling the frames `reception` marks as lost by
    /// concealment or by FEC from the next packet.
    static func decodeAll(
        _ packets: [[UInt8]], format: AudioFormat, samplesPerFrame: Int, reception: (Int) -> Reception
    ) throws -> [Int16] {
        let decoder = try OpusDecoder(format: format)
        var output: [Int16] = []
        var frame = [Int16](repeating: 0, count: samplesPerFrame * format.channels)
        for (index, packet) in packets.enumerated() {
            let written = try frame.withUnsafeMutableBufferPointer { pcm in
                switch reception(index) {
                case .received:
                    try packet.withUnsafeBytes { try decoder.decode($0, into: pcm) }
                case .concealed:
                    try decoder.decode(lost: samplesPerFrame, into: pcm)
                case .recoveredByFEC:
                    try packets[index + 1].withUnsafeBytes {
                        try decoder.decodeFEC(from: $0, samplesPerChannel: samplesPerFrame, into: pcm)
                    }
                }
            }
            #expect(written == samplesPerFrame)
            output += frame
        }
        return output
    }
}

@Suite("Opus encoder and decoder")
struct OpusCodecTests {
    static let rates = [8000, 12_000, 16_000, 24_000, 48_000]

    @Test(arguments: rates, [1, 2])
    func everyRateChannelsAndDurationRoundTrips(sampleRate: Int, channels: Int) throws {
        let format = AudioFormat(sampleRate: sampleRate, channels: channels)
        for duration in OpusFrameDuration.allCases {
            let encoder = try OpusEncoder(configuration: OpusEncoderConfiguration(format: format, frameDuration: duration))
            let decoder = try OpusDecoder(format: format)
            let samples = duration.samplesPerChannel(sampleRate: sampleRate)
            #expect(encoder.samplesPerFrame == samples)
            #expect(encoder.algorithmicDelaySamples == samples + encoder.lookaheadSamples)
            #expect(encoder.lookaheadSamples > 0)
            let tone = OpusTestAudio.tone(frequency: 440, sampleRate: sampleRate, count: samples * 10)
            let pcm = channels == 1 ? tone : OpusTestAudio.interleave(tone, tone)
            var output = [Int16](repeating: 0, count: samples * channels)
            for packet in try OpusTestAudio.encodeAll(pcm, with: encoder) {
                let info = try packet.withUnsafeBytes { try OpusPacketInfo($0) }
                #expect(info.samplesPerChannel(sampleRate: sampleRate) == samples)
                #expect(info.channels <= channels)  // libopus may code a stereo input as a mono stream
                let decoded = try packet.withUnsafeBytes { payload in
                    try output.withUnsafeMutableBufferPointer { try decoder.decode(payload, into: $0) }
                }
                #expect(decoded == samples)
            }
            #expect(OpusTestAudio.energyDecibels(output) > 60, "\(format) \(duration) decodes to near silence")
        }
    }

    @Test func frameDurationsMapMillisecondsAndSamples() {
        #expect(OpusFrameDuration(milliseconds: 20) == .milliseconds20)
        #expect(OpusFrameDuration(milliseconds: 60) == .milliseconds60)
        #expect(OpusFrameDuration(milliseconds: 30) == nil)
        #expect(OpusFrameDuration.milliseconds2_5.samplesPerChannel(sampleRate: 8000) == 20)
        #expect(OpusFrameDuration.milliseconds60.samplesPerChannel(sampleRate: 48_000) == 2880)
        #expect(OpusFrameDuration.milliseconds2_5.description == "2.5 ms")
        #expect(OpusFrameDuration.milliseconds40.description == "40 ms")
    }

    @Test func fecRecoversALostFrameBetterThanConcealment() throws {
        let format = AudioFormat(sampleRate: 16_000, channels: 1)
        let encoder = try OpusEncoder(
            configuration: OpusEncoderConfiguration(
                format: format, bitrate: .bitsPerSecond(24_000), inbandFEC: true, expectedPacketLossPercent: 20))
        let original = OpusTestAudio.speechLike(sampleRate: 16_000, seconds: 6)
        let packets = try OpusTestAudio.encodeAll(original, with: encoder)
        let frame = encoder.samplesPerFrame
        let carriesFEC = try packets.map { packet in try packet.withUnsafeBytes { try OpusPacketInfo($0).hasFEC } }
        // Lose every 8th frame whose successor carries FEC (and is not itself lost).
        let lost = Set((0..<packets.count - 1).filter { $0 % 8 == 3 && carriesFEC[$0 + 1] })
        #expect(lost.count >= 15)

        let viaFEC = try OpusTestAudio.decodeAll(packets, format: format, samplesPerFrame: frame) { lost.contains($0) ? .recoveredByFEC : .received }
        let viaPLC = try OpusTestAudio.decodeAll(packets, format: format, samplesPerFrame: frame) { lost.contains($0) ? .concealed : .received }
        // The decoder's output lags the input by the encoder's lookahead.
        let delay = encoder.lookaheadSamples
        var fecSNR = 0.0
        var plcSNR = 0.0
        for index in lost.sorted() {
            let range = index * frame..<(index + 1) * frame
            let reference = original[(range.lowerBound - delay)..<(range.upperBound - delay)]
            #expect(
                OpusTestAudio.energyDecibels(viaFEC[range]) > OpusTestAudio.energyDecibels(reference) - 10,
                "frame \(index) recovered as near silence"
            )
            fecSNR += OpusTestAudio.snrDecibels(reference: reference, test: viaFEC[range])
            plcSNR += OpusTestAudio.snrDecibels(reference: reference, test: viaPLC[range])
        }
        fecSNR /= Double(lost.count)
        plcSNR /= Double(lost.count)
        #expect(fecSNR > plcSNR + 3, "mean SNR over lost frames: FEC \(fecSNR) dB, PLC \(plcSNR) dB")
    }

    @Test func packetsWithoutFECRecoverNoBetterThanConcealment() throws {
        let format = AudioFormat(sampleRate: 16_000, channels: 1)
        let encoder = try OpusEncoder(configuration: OpusEncoderConfiguration(format: format, bitrate: .bitsPerSecond(24_000)))
        let packets = try OpusTestAudio.encodeAll(OpusTestAudio.speechLike(sampleRate: 16_000, seconds: 2), with: encoder)
        #expect(try packets.allSatisfy { packet in try !packet.withUnsafeBytes { try OpusPacketInfo($0).hasFEC } })
        let lost: Set<Int> = [20, 40, 60]
        let viaFEC = try OpusTestAudio.decodeAll(packets, format: format, samplesPerFrame: 320) { lost.contains($0) ? .recoveredByFEC : .received }
        let viaPLC = try OpusTestAudio.decodeAll(packets, format: format, samplesPerFrame: 320) { lost.contains($0) ? .concealed : .received }
        #expect(viaFEC == viaPLC)
    }

    @Test func dtxSendsTinyPacketsDuringSilence() throws {
        let speech = OpusTestAudio.speechLike(sampleRate: 48_000, seconds: 1.5)
        let silence = [Int16](repeating: 0, count: 48_000 * 2)
        func packetSizes(dtx: Bool) throws -> [Int] {
            let encoder = try OpusEncoder(configuration: OpusEncoderConfiguration(discontinuousTransmission: dtx))
            return try OpusTestAudio.encodeAll(speech + silence, with: encoder).map(\.count)
        }
        // Skip the first 400 ms of silence while the encoder's own detector decides.
        let silentPackets = 75 + 20..<175
        let withDTX = try packetSizes(dtx: true)[silentPackets]
        let withoutDTX = try packetSizes(dtx: false)[silentPackets]
        let tinyWithDTX = withDTX.filter { $0 <= 2 }.count
        #expect(Double(tinyWithDTX) >= 0.8 * Double(withDTX.count), "sizes \(withDTX)")
        #expect(withoutDTX.allSatisfy { $0 > 2 }, "sizes \(withoutDTX)")
    }

    @Test func encoderRejectsWrongInput() throws {
        let encoder = try OpusEncoder()
        var payload = [UInt8](repeating: 0, count: 1500)
        let short = [Int16](repeating: 0, count: 959)
        #expect(throws: CodecError.wrongFrameSize(expectedSamples: 960, actualSamples: 959)) {
            try short.withUnsafeBufferPointer { pcm in try payload.withUnsafeMutableBytes { try encoder.encode(pcm, into: $0) } }
        }
        let frame = OpusTestAudio.tone(frequency: 300, sampleRate: 48_000, count: 960)
        #expect(throws: CodecError.outputTooSmall(requiredBytes: 1, availableBytes: 0)) {
            try frame.withUnsafeBufferPointer { try encoder.encode($0, into: UnsafeMutableRawBufferPointer(start: nil, count: 0)) }
        }
    }

    @Test func unsupportedSettingsAreRejected() throws {
        let invalid: [OpusEncoderConfiguration] = [
            OpusEncoderConfiguration(format: AudioFormat(sampleRate: 44_100, channels: 1)),
            OpusEncoderConfiguration(format: AudioFormat(sampleRate: 48_000, channels: 3)),
            OpusEncoderConfiguration(bitrate: .bitsPerSecond(2000)),
            OpusEncoderConfiguration(complexity: 11),
            OpusEncoderConfiguration(expectedPacketLossPercent: 101),
        ]
        for configuration in invalid {
            #expect(throws: CodecError.self) { try OpusEncoder(configuration: configuration) }
        }
        #expect(throws: CodecError.self) { try OpusDecoder(format: AudioFormat(sampleRate: 32_000, channels: 1)) }
        let encoder = try OpusEncoder()
        #expect(throws: CodecError.self) {
            try encoder.reconfigure(OpusEncoderConfiguration(format: AudioFormat(sampleRate: 16_000, channels: 1)))
        }
        try encoder.reconfigure(OpusEncoderConfiguration(frameDuration: .milliseconds10, bitrate: .bitsPerSecond(12_000)))
        #expect(encoder.samplesPerFrame == 480)
    }

    @Test func decoderRejectsBadPacketsAndBuffers() throws {
        let decoder = try OpusDecoder()
        var pcm = [Int16](repeating: 0, count: 5760)
        func decode(_ packet: [UInt8], capacity: Int = 5760) throws -> Int {
            try pcm.withUnsafeMutableBufferPointer { buffer in
                try packet.withUnsafeBytes { payload in
                    try decoder.decode(payload, into: UnsafeMutableBufferPointer(rebasing: buffer[..<capacity]))
                }
            }
        }
        #expect(throws: CodecError.invalidPayload("empty Opus packet")) { try decode([]) }
        // Code 1 (two equal frames) with an odd payload length is invalid.
        #expect(throws: CodecError.library(call: "opus_decode", code: -4, message: "corrupted stream")) {
            try decode([0xF9, 1, 2, 3])
        }
        // A 20 ms CELT packet needs 960 samples.
        #expect(throws: CodecError.outputTooSmall(requiredBytes: 1920, availableBytes: 1000)) {
            try decode([0xF8, 0xFF, 0xFE], capacity: 500)
        }
        #expect(throws: CodecError.self) {
            try pcm.withUnsafeMutableBufferPointer { try decoder.decode(lost: 100, into: $0) }
        }
        #expect(try pcm.withUnsafeMutableBufferPointer { try decoder.decode(lost: 480, into: $0) } == 480)
        #expect(try decoder.lastPacketSamplesPerChannel == 480)
    }
}
