import Codecs
import Testing
import TestSupport

/// The encoder's in-band FEC follows the loss set at run time (a call sizes it from the loss
/// the far end reports in RTCP).
@Suite("Opus FEC adapts to the reported loss")
struct OpusLossAdaptationTests {
    static let format = AudioFormat(sampleRate: 16_000, channels: 1)

    static func fecEncoder(expectedLoss: Int) throws -> OpusEncoder {
        try OpusEncoder(
            configuration: OpusEncoderConfiguration(
                format: format, bitrate: .bitsPerSecond(24_000), inbandFEC: true, expectedPacketLossPercent: expectedLoss))
    }

    /// How many of `packets` carry LBRR for the frame before them.
    static func packetsCarryingFEC(_ packets: some Sequence<[UInt8]>) throws -> Int {
        try packets.count { packet in try packet.withUnsafeBytes { try OpusPacketInfo($0).hasFEC } }
    }

    @Test func packetsCarryFECOnlyWhileTheSetLossIsAboveZero() throws {
        let encoder = try Self.fecEncoder(expectedLoss: 10)
        let speech = OpusTestAudio.speechLike(sampleRate: 16_000, seconds: 6)
        let thirds = stride(from: 0, to: speech.count, by: speech.count / 3).map { Array(speech[$0..<min($0 + speech.count / 3, speech.count)]) }

        encoder.adaptForwardErrorCorrection(toLossPercent: 0)
        let clean = try OpusTestAudio.encodeAll(thirds[0], with: encoder)
        encoder.adaptForwardErrorCorrection(toLossPercent: 15)
        let lossy = try OpusTestAudio.encodeAll(thirds[1], with: encoder)
        encoder.adaptForwardErrorCorrection(toLossPercent: 0.4)
        let cleanAgain = try OpusTestAudio.encodeAll(thirds[2], with: encoder)

        #expect(try Self.packetsCarryingFEC(clean) == 0)
        #expect(try Self.packetsCarryingFEC(lossy) > lossy.count / 2, "most speech packets carry FEC at 15 %")
        // The first packet after the switch still carries the redundancy of the frame coded at 15 %.
        #expect(try Self.packetsCarryingFEC(cleanAgain.dropFirst()) == 0)
    }

    @Test func aFrameLostAtZeroLossIsConcealedButAtTenPercentRecovered() throws {
        let speech = OpusTestAudio.speechLike(sampleRate: 16_000, seconds: 2)
        let lost = Set(stride(from: 13, to: 95, by: 8))
        var snrGain: [Int: Double] = [:]
        for loss in [0, 10] {
            let encoder = try Self.fecEncoder(expectedLoss: 10)
            encoder.adaptForwardErrorCorrection(toLossPercent: Double(loss))
            let packets = try OpusTestAudio.encodeAll(speech, with: encoder)
            let frame = encoder.samplesPerFrame
            let viaFEC = try OpusTestAudio.decodeAll(packets, format: Self.format, samplesPerFrame: frame) { lost.contains($0) ? .recoveredByFEC : .received }
            let viaPLC = try OpusTestAudio.decodeAll(packets, format: Self.format, samplesPerFrame: frame) { lost.contains($0) ? .concealed : .received }
            let delay = encoder.lookaheadSamples
            snrGain[loss] =
                lost.map { index in
                    let range = index * frame..<(index + 1) * frame
                    let reference = speech[(range.lowerBound - delay)..<(range.upperBound - delay)]
                    return OpusTestAudio.snrDecibels(reference: reference, test: viaFEC[range])
                        - OpusTestAudio.snrDecibels(reference: reference, test: viaPLC[range])
                }.reduce(0, +) / Double(lost.count)
        }
        #expect(snrGain[0] == 0, "at 0 % the next packet holds nothing to recover from")
        #expect(try #require(snrGain[10]) > 3, "FEC over concealment at 10 %: \(snrGain[10] ?? 0) dB")
    }

    @Test func theSetLossIsRoundedClampedAndKeptOnlyWithFEC() throws {
        let encoder = try Self.fecEncoder(expectedLoss: 10)
        #expect(encoder.forwardErrorCorrectionLossPercent == 10)
        for (asked, kept) in [(2.4, 2), (2.6, 3), (-5, 0), (300, 100), (.nan, 100), (-.infinity, 0), (.infinity, 100)] {
            encoder.adaptForwardErrorCorrection(toLossPercent: asked)
            #expect(encoder.forwardErrorCorrectionLossPercent == kept, "asked \(asked) %")
            #expect(encoder.configuration.expectedPacketLossPercent == kept)
        }

        let withoutFEC = try OpusEncoder(configuration: OpusEncoderConfiguration(expectedPacketLossPercent: 5))
        withoutFEC.adaptForwardErrorCorrection(toLossPercent: 20)
        #expect(withoutFEC.forwardErrorCorrectionLossPercent == nil)
        #expect(withoutFEC.configuration.expectedPacketLossPercent == 5)

        var g711: any AudioEncoder = try G711Encoder(law: .muLaw, frameDurationMilliseconds: 20)
        g711.adaptForwardErrorCorrection(toLossPercent: 20)
        #expect(g711.forwardErrorCorrectionLossPercent == nil)
    }

    @Test(.countsAllocations) func adaptingAllocatesNothing() throws {
        let encoder = try Self.fecEncoder(expectedLoss: 10)
        var percent = 0.0
        let allocations = OpusAllocationTests.fewestAllocations {
            percent = percent >= 20 ? 0 : percent + 1
            encoder.adaptForwardErrorCorrection(toLossPercent: percent)
        }
        #expect(allocations == 0)
    }
}
