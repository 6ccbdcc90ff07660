import Codecs
import Testing

/// The SDP codec registry: names, rates, RFC 7587 parameters, packet times, factories, errors.
@Suite("Codec registry")
struct CodecRegistryTests {
    let registry = CodecRegistry()

    @Test("G.711 by name, case-insensitively, and by static payload type")
    func g711() throws {
        for encoding in ["PCMU/8000", "pcmu/8000", " PcMu/8000/1 "] {
            let description = try registry.describe(rtpmap: encoding)
            #expect(description.parameters == .g711(.muLaw))
            #expect(description.rtpmap == "PCMU/8000" && description.clockRate == 8000 && description.channels == 1)
        }
        #expect(try registry.describe(rtpmap: "PCMA/8000", ptime: 30).packetTimeMilliseconds == 30)
        #expect(try registry.describe(staticPayloadType: 8).parameters == .g711(.aLaw))
        #expect(try registry.describe(staticPayloadType: 0).encodingName == "PCMU")
        #expect(throws: CodecRegistryError.unsupportedCodec("static payload type 18")) { try registry.describe(staticPayloadType: 18) }
    }

    @Test("Opus with every RFC 7587 parameter")
    func opusParameters() throws {
        let description = try registry.describe(
            rtpmap: "OPUS/48000/2",
            fmtp: "maxplaybackrate=16000; sprop-maxcapturerate=16000;stereo=1;sprop-stereo=1;"
                + " useinbandfec=1; usedtx=1; maxaveragebitrate=24000; cbr=1; minptime=10",
            ptime: 20,
            maxptime: 60
        )
        guard case let .opus(opus) = description.parameters else {
            Issue.record("not opus: \(description)")
            return
        }
        #expect(opus.maximumPlaybackRate == 16000 && opus.maximumCaptureRate == 16000)
        #expect(opus.stereo && opus.senderStereo && opus.inBandFEC && opus.discontinuousTransmission && opus.constantBitrate)
        #expect(opus.maximumAverageBitrate == 24000)
        #expect(description.packetTimeMilliseconds == 20 && description.maximumPacketTimeMilliseconds == 60)
        #expect(description.rtpmap == "opus/48000/2")
        // The fmtp we would write says the same thing, and reads back to the same parameters.
        #expect(try OpusParameters(fmtp: description.fmtp) == opus)
        #expect(description.description.hasPrefix("opus/48000/2 maxplaybackrate=16000;"))
    }

    @Test("Opus defaults when fmtp says nothing")
    func opusDefaults() throws {
        let description = try registry.describe(rtpmap: "opus/48000/2")
        #expect(description.parameters == .opus(OpusParameters()))
        #expect(description.fmtp.isEmpty && description.packetTimeMilliseconds == nil)
        let defaults = OpusParameters()
        #expect(defaults.maximumPlaybackRate == 48000 && !defaults.inBandFEC && defaults.maximumAverageBitrate == nil)
    }

    @Test("bad descriptions give their typed errors")
    func errors() {
        let cases: [(String, String, Int?, Int?, CodecRegistryError)] = [
            ("G729/8000", "", nil, nil, .unsupportedCodec("G729")),
            ("PCMU", "", nil, nil, .malformedEncoding("PCMU")),
            ("PCMU/abc", "", nil, nil, .malformedEncoding("PCMU/abc")),
            ("PCMU/8000/0", "", nil, nil, .malformedEncoding("PCMU/8000/0")),
            ("/8000", "", nil, nil, .malformedEncoding("/8000")),
            ("PCMU/16000", "", nil, nil, .unsupportedClockRate(codec: "PCMU", clockRate: 16000, supported: 8000)),
            ("PCMA/8000/2", "", nil, nil, .unsupportedChannels(codec: "PCMA", channels: 2, supported: 1)),
            ("opus/48000", "", nil, nil, .unsupportedChannels(codec: "opus", channels: 1, supported: 2)),
            ("opus/16000/2", "", nil, nil, .unsupportedClockRate(codec: "opus", clockRate: 16000, supported: 48000)),
            (
                "opus/48000/2", "maxaveragebitrate=5999", nil, nil,
                .invalidParameter(name: "maxaveragebitrate", value: "5999", reason: "outside 6000...510000")
            ),
            (
                "opus/48000/2", "maxaveragebitrate=510001", nil, nil,
                .invalidParameter(name: "maxaveragebitrate", value: "510001", reason: "outside 6000...510000")
            ),
            (
                "opus/48000/2", "maxplaybackrate=96000", nil, nil,
                .invalidParameter(name: "maxplaybackrate", value: "96000", reason: "outside 8000...48000")
            ),
            ("opus/48000/2", "stereo=2", nil, nil, .invalidParameter(name: "stereo", value: "2", reason: "outside 0...1")),
            ("opus/48000/2", "useinbandfec=yes", nil, nil, .invalidParameter(name: "useinbandfec", value: "yes", reason: "not an integer")),
            ("opus/48000/2", "usedtx", nil, nil, .malformedParameter("usedtx")),
            ("opus/48000/2", "usedtx=1;USEDTX=0", nil, nil, .malformedParameter("usedtx is given twice")),
            ("opus/48000/2", "=1", nil, nil, .malformedParameter("=1")),
            ("PCMU/8000", "annexb", nil, nil, .malformedParameter("annexb")),
            ("opus/48000/2", "", 40, 20, .contradictoryParameters("ptime 40 ms exceeds maxptime 20 ms")),
            (
                "opus/48000/2", "", 15, nil,
                .invalidParameter(name: "ptime", value: "15", reason: "this build sends opus packets of 5, 10, 20, 40, 60, 80, 100, 120 ms")
            ),
            (
                "PCMU/8000", "", 25, nil,
                .invalidParameter(name: "ptime", value: "25", reason: "this build sends PCMU packets of 10, 20, 30, 40, 50, 60 ms")
            ),
            ("PCMU/8000", "", nil, 5, .invalidParameter(name: "maxptime", value: "5", reason: "below the shortest PCMU packet (10 ms)")),
        ]
        for (encoding, fmtp, ptime, maxptime, expected) in cases {
            #expect(throws: expected, "\(encoding) \(fmtp)") {
                try registry.describe(rtpmap: encoding, fmtp: fmtp, ptime: ptime, maxptime: maxptime)
            }
        }
        #expect(CodecRegistryError.unsupportedCodec("G729").description.contains("G729"))
    }

    @Test("G.711 encoders and decoders come out framed and concealing as described")
    func factories() throws {
        let description = try registry.describe(rtpmap: "PCMA/8000", ptime: 10)
        let encoder = try registry.makeEncoder(for: description)
        #expect(encoder.samplesPerFrame == 80 && encoder.rtpClockRate == 8000)
        #expect(try registry.makeEncoder(for: registry.describe(rtpmap: "PCMU/8000")).samplesPerFrame == 160)
        let decoder = try #require(CodecRegistry(g711Concealment: .zeroFill).makeDecoder(for: description) as? G711Decoder)
        #expect(decoder.law == .aLaw && decoder.concealer.method == .zeroFill)
    }

    @Test("Opus encoders and decoders follow the receiver's RFC 7587 parameters")
    func opusFactoryAppliesTheReceiversParameters() throws {
        let description = try registry.describe(
            rtpmap: "opus/48000/2", fmtp: "stereo=1;sprop-stereo=1;maxaveragebitrate=32000;useinbandfec=1", ptime: 40)
        let encoder = try #require(try registry.makeEncoder(for: description) as? OpusEncoder)
        #expect(encoder.format == AudioFormat(sampleRate: 48_000, channels: 2))
        #expect(encoder.samplesPerFrame == 1920)
        let decoder = try registry.makeDecoder(for: description)
        #expect(decoder.format == AudioFormat(sampleRate: 48_000, channels: 2))
        #expect(decoder.supportsForwardErrorCorrection)

        let bad = try registry.describe(rtpmap: "opus/48000/2", ptime: 80)
        #expect(throws: CodecRegistryError.self) { try registry.makeEncoder(for: bad) }
    }
}
