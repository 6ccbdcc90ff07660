import Codecs
import Testing

@Suite("Opus packet inspection")
struct OpusPacketInfoTests {
    func inspect(_ bytes: [UInt8]) throws -> OpusPacketInfo {
        try bytes.withUnsafeBytes { try OpusPacketInfo($0) }
    }

    @Test func readsTheTOCOfKnownPackets() throws {
        // Configuration 1: SILK narrowband 20 ms, mono, one frame (RFC 6716 Table 2).
        let silk = try inspect([0x08, 0x00, 0x11])
        #expect(silk.mode == .silk)
        #expect(silk.bandwidth == .narrowband)
        #expect(silk.channels == 1)
        #expect(silk.frameCount == 1)
        #expect(silk.samplesPerFrameAt48kHz == 960)
        #expect(silk.samplesPerChannel(sampleRate: 16_000) == 320)
        // Configuration 13: hybrid super-wideband 20 ms, stereo, two equal frames (code 1).
        let hybrid = try inspect([0x6D, 0xAA, 0xBB])
        #expect(hybrid.mode == .hybrid)
        #expect(hybrid.bandwidth == .superWideband)
        #expect(hybrid.channels == 2)
        #expect(hybrid.frameCount == 2)
        #expect(hybrid.samplesPerChannelAt48kHz == 1920)
        // Configuration 28: CELT fullband 2.5 ms, code 3 with three constant-size frames.
        let celt = try inspect([0xE3, 0x03, 1, 2, 3])
        #expect(celt.mode == .celt)
        #expect(celt.bandwidth == .fullband)
        #expect(celt.frameCount == 3)
        #expect(celt.samplesPerFrameAt48kHz == 120)
        #expect(!celt.hasFEC)
        // Configuration 10: SILK wideband 40 ms; code 2 with frames of 1 and 2 bytes.
        let twoSizes = try inspect([0x52, 0x01, 0x20, 0x00, 0x00])
        #expect(twoSizes.bandwidth == .wideband)
        #expect(twoSizes.frameCount == 2)
        #expect(twoSizes.samplesPerFrameAt48kHz == 1920)
    }

    @Test func findsTheLBRRFlagWhereRFC6716PutsIt() throws {
        // Mono 20 ms SILK: one VAD flag, then the LBRR flag (second bit of the first frame).
        #expect(try inspect([0x08, 0b0100_0000]).hasFEC)
        #expect(try !inspect([0x08, 0b1011_1111]).hasFEC)
        // Mono 60 ms SILK (configuration 3): three VAD flags, then LBRR in the fourth bit.
        #expect(try inspect([0x18, 0b0001_0000]).hasFEC)
        #expect(try !inspect([0x18, 0b1110_1111]).hasFEC)
        // Stereo 20 ms: mid VAD + LBRR, then side VAD + LBRR: the side flag is the fourth bit.
        #expect(try inspect([0x0C, 0b0001_0000]).hasFEC)
        #expect(try !inspect([0x0C, 0b1010_1111]).hasFEC)
        // Hybrid carries LBRR like SILK; CELT never does.
        #expect(try inspect([0x60, 0b0100_0000]).hasFEC)
        #expect(try !inspect([0xF8, 0xFF]).hasFEC)
        // An empty first frame (DTX) carries none.
        #expect(try !inspect([0x08]).hasFEC)
    }

    @Test func fecFlagFollowsTheEncoderSetting() throws {
        let format = AudioFormat(sampleRate: 16_000, channels: 1)
        let speech = OpusTestAudio.speechLike(sampleRate: 16_000, seconds: 3)
        func fecPackets(_ fec: Bool) throws -> Int {
            let encoder = try OpusEncoder(
                configuration: OpusEncoderConfiguration(
                    format: format, bitrate: .bitsPerSecond(24_000), inbandFEC: fec, expectedPacketLossPercent: 10))
            return try OpusTestAudio.encodeAll(speech, with: encoder).filter { packet in
                try packet.withUnsafeBytes { try OpusPacketInfo($0).hasFEC }
            }.count
        }
        #expect(try fecPackets(true) > 50)
        #expect(try fecPackets(false) == 0)
    }

    /// Where the inspector says a packet carries FEC, libopus' FEC decode differs from its
    /// concealment; where it says none, libopus falls back to concealment, sample for sample.
    @Test func fecFlagAgreesWithLibopus() throws {
        let format = AudioFormat(sampleRate: 16_000, channels: 1)
        let encoder = try OpusEncoder(
            configuration: OpusEncoderConfiguration(
                format: format, bitrate: .bitsPerSecond(20_000), inbandFEC: true, expectedPacketLossPercent: 15,
                discontinuousTransmission: true))
        let packets = try OpusTestAudio.encodeAll(OpusTestAudio.speechLike(sampleRate: 16_000, seconds: 3), with: encoder)
        var agreements = (withFEC: 0, withoutFEC: 0)
        for lost in stride(from: 5, to: packets.count - 1, by: 4) {
            let viaFEC = try OpusTestAudio.decodeAll(Array(packets[...(lost + 1)]), format: format, samplesPerFrame: 320) {
                $0 == lost ? .recoveredByFEC : .received
            }
            let viaPLC = try OpusTestAudio.decodeAll(Array(packets[...(lost + 1)]), format: format, samplesPerFrame: 320) {
                $0 == lost ? .concealed : .received
            }
            let frame = lost * 320..<(lost + 1) * 320
            let hasFEC = try packets[lost + 1].withUnsafeBytes { try OpusPacketInfo($0).hasFEC }
            #expect((viaFEC[frame] != viaPLC[frame]) == hasFEC, "frame \(lost)")
            if hasFEC { agreements.withFEC += 1 } else { agreements.withoutFEC += 1 }
        }
        #expect(agreements.withFEC >= 10)
        #expect(agreements.withoutFEC >= 3)
    }

    @Test(
        arguments: [
            // Code 1 needs an even number of bytes after the TOC.
            ([0x09, 1, 2, 3], 1),
            // Code 2: the first frame claims 5 bytes, only 1 follows.
            ([0x0A, 5, 0], 2),
            // Code 3 without its frame count byte.
            ([0x0B], 3),
            // Code 3 with zero frames.
            ([0x0B, 0x00], 3),
            // Code 3: seven 20 ms frames are 140 ms, over the 120 ms limit.
            ([0x0B, 0x07, 1, 2, 3, 4, 5, 6, 7], 3),
            // Code 3 constant size: 4 bytes do not split into 3 equal frames.
            ([0x0B, 0x03, 1, 2, 3, 4], 3),
            // Code 3 with padding longer than the packet.
            ([0x0B, 0x41, 0xFF], 3),
            // Code 0: a single frame over 1275 bytes.
            ([0x08] + [UInt8](repeating: 0, count: 1276), 0),
        ] as [([UInt8], Int)])
    func rejectsMalformedFraming(bytes: [UInt8], code: Int) {
        #expect(throws: OpusPacketError.malformed(packetBytes: bytes.count, frameCountCode: code)) {
            try inspect(bytes)
        }
    }

    @Test func rejectsAnEmptyPacket() {
        #expect(throws: OpusPacketError.empty) { try inspect([]) }
        #expect(OpusPacketError.empty.description.contains("no TOC"))
    }
}
