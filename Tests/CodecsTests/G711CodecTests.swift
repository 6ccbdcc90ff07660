import Codecs
import Testing

/// The G.711 encoder and decoder types: properties, round trips and every error.
@Suite("G.711 encoder and decoder")
struct G711CodecTests {
    @Test("properties of a 20 ms PCMA encoder and decoder")
    func properties() throws {
        let encoder = try G711Encoder(law: .aLaw)
        #expect(encoder.format == AudioFormat(sampleRate: 8000, channels: 1))
        #expect(encoder.samplesPerFrame == 160 && encoder.algorithmicDelaySamples == 160)
        #expect(encoder.rtpClockRate == 8000)
        let decoder = G711Decoder(law: .aLaw)
        #expect(decoder.format.sampleRate == 8000 && !decoder.supportsForwardErrorCorrection)
        #expect(decoder.concealer.method == .appendixI)
        #expect(try G711Encoder(law: .muLaw, frameDurationMilliseconds: 10).samplesPerFrame == 80)
    }

    @Test("unsupported frame durations are refused", arguments: [0, 5, 15, 25, 70, -10])
    func badFrameDuration(milliseconds: Int) {
        #expect(throws: CodecError.self) { try G711Encoder(law: .muLaw, frameDurationMilliseconds: milliseconds) }
    }

    @Test("a frame round-trips through encoder and decoder", arguments: G711Law.allCases)
    func roundTrip(law: G711Law) throws {
        var encoder = try G711Encoder(law: law, frameDurationMilliseconds: 10)
        var decoder = G711Decoder(law: law)
        let pcm: [Int16] = (0..<80).map { Int16($0 * 400 - 16_000) }
        var payload = [UInt8](repeating: 0, count: 100)
        var decoded = [Int16](repeating: 0, count: 100)
        let bytes = try pcm.withUnsafeBufferPointer { pcm in
            try payload.withUnsafeMutableBytes { try encoder.encode(pcm, into: $0) }
        }
        #expect(bytes == 80)
        let samples = try payload[..<bytes].withUnsafeBytes { payload in
            try decoded.withUnsafeMutableBufferPointer { try decoder.decode(payload, into: $0) }
        }
        #expect(samples == 80)
        #expect(Array(decoded[..<80]) == pcm.map { law.decode(law.encode($0)) })
    }

    @Test("encoder errors: wrong frame size, payload buffer too small")
    func encoderErrors() throws {
        var encoder = try G711Encoder(law: .muLaw)
        var payload = [UInt8](repeating: 0, count: 160)
        let short = [Int16](repeating: 0, count: 159)
        #expect(throws: CodecError.wrongFrameSize(expectedSamples: 160, actualSamples: 159)) {
            try short.withUnsafeBufferPointer { pcm in try payload.withUnsafeMutableBytes { try encoder.encode(pcm, into: $0) } }
        }
        let frame = [Int16](repeating: 0, count: 160)
        #expect(throws: CodecError.outputTooSmall(requiredBytes: 160, availableBytes: 100)) {
            try frame.withUnsafeBufferPointer { pcm in
                try payload.withUnsafeMutableBytes { try encoder.encode(pcm, into: UnsafeMutableRawBufferPointer(rebasing: $0[..<100])) }
            }
        }
    }

    @Test("decoder errors: empty payload, PCM buffer too small, empty lost frame")
    func decoderErrors() throws {
        var decoder = G711Decoder(law: .muLaw)
        var pcm = [Int16](repeating: 0, count: 80)
        let empty: [UInt8] = []
        let long = [UInt8](repeating: 0xFF, count: 81)
        #expect(throws: CodecError.invalidPayload("empty G.711 payload")) {
            try empty.withUnsafeBytes { payload in try pcm.withUnsafeMutableBufferPointer { try decoder.decode(payload, into: $0) } }
        }
        #expect(throws: CodecError.outputTooSmall(requiredBytes: 162, availableBytes: 160)) {
            try long.withUnsafeBytes { payload in try pcm.withUnsafeMutableBufferPointer { try decoder.decode(payload, into: $0) } }
        }
        #expect(throws: CodecError.self) {
            try pcm.withUnsafeMutableBufferPointer { try decoder.decode(lost: 0, into: $0) }
        }
        #expect(throws: CodecError.outputTooSmall(requiredBytes: 320, availableBytes: 160)) {
            try pcm.withUnsafeMutableBufferPointer { try decoder.decode(lost: 160, into: $0) }
        }
        // G.711 has no FEC: "recovering" from the next packet conceals.
        let next = [UInt8](repeating: 0xFF, count: 80)
        let written = try next.withUnsafeBytes { next in
            try pcm.withUnsafeMutableBufferPointer { try decoder.decodeFEC(from: next, samplesPerChannel: 80, into: $0) }
        }
        #expect(written == 80 && decoder.concealer.isConcealing)
    }
}
