import Codecs
import Testing

@Suite("Opus encoder settings from RFC 7587 parameters")
struct OpusSDPConfigurationTests {
    @Test func defaultsGiveAMonoFullbandVOIPEncoder() throws {
        let configuration = try OpusEncoderConfiguration(receiverParameters: OpusParameters(), packetTimeMilliseconds: 20)
        #expect(configuration == OpusEncoderConfiguration())
    }

    @Test func everyParameterMapsToItsSetting() throws {
        let parameters = try OpusParameters(
            fmtp: "maxplaybackrate=16000;stereo=1;maxaveragebitrate=24000;cbr=1;useinbandfec=1;usedtx=1")
        let configuration = try OpusEncoderConfiguration(
            receiverParameters: parameters, packetTimeMilliseconds: 40, expectedPacketLossPercent: 7)
        #expect(configuration.format == AudioFormat(sampleRate: 48_000, channels: 2))
        #expect(configuration.frameDuration == .milliseconds40)
        #expect(configuration.maxBandwidth == .wideband)
        #expect(configuration.bitrate == .bitsPerSecond(24_000))
        #expect(configuration.bitrateMode == .constant)
        #expect(configuration.inbandFEC)
        #expect(configuration.expectedPacketLossPercent == 7)
        #expect(configuration.discontinuousTransmission)
        // And the encoder honours them: wideband packets with FEC once the speech settles.
        let encoder = try OpusEncoder(configuration: configuration)
        let speech = OpusTestAudio.speechLike(sampleRate: 48_000, seconds: 2)
        let packets = try OpusTestAudio.encodeAll(OpusTestAudio.interleave(speech, speech), with: encoder)
        let infos = try packets.filter { $0.count > 2 }.map { packet in try packet.withUnsafeBytes { try OpusPacketInfo($0) } }
        #expect(infos.allSatisfy { $0.bandwidth <= .wideband })
        #expect(infos.contains { $0.hasFEC })
    }

    @Test(arguments: [
        (8000, OpusBandwidth.narrowband), (11_025, .narrowband), (12_000, .mediumband),
        (16_000, .wideband), (22_050, .wideband), (24_000, .superWideband), (48_000, .fullband),
    ])
    func playbackRateCapsTheBandwidth(rate: Int, bandwidth: OpusBandwidth) {
        #expect(OpusBandwidth(playbackRate: rate) == bandwidth)
    }

    @Test func packetTimesOfSeveralFramesAreRefused() throws {
        #expect(throws: CodecError.self) {
            try OpusEncoderConfiguration(receiverParameters: OpusParameters(), packetTimeMilliseconds: 80)
        }
        #expect(throws: CodecError.self) {
            try OpusEncoderConfiguration(receiverParameters: OpusParameters(), packetTimeMilliseconds: 20, sampleRate: 44_100)
        }
    }
}
