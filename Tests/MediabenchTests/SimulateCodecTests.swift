import BenchmarkSuites
import Codecs
import Foundation
import Jitter
import PlayoutLab
import NetworkModel
import Testing

@testable import MediabenchCLI

/// `mediabench simulate --codec`: speech through the real encoder, our buffer and the real
/// decoder, with the codec set up as `mediabench call` sets it up.
@Suite struct SimulateCodecTests {
    /// A temporary folder for the WAV files of one test, removed when it ends.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("simulate-\(UUID().uuidString)")

        init() throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        deinit {
            try? FileManager.default.removeItem(at: url)
        }

        /// Writes `samples` in `format` to a WAV file named `name` and returns its path.
        func wav(_ name: String, _ samples: [Int16], _ format: AudioFormat) throws -> String {
            let path = url.appendingPathComponent(name).path
            try WAVAudio(format: format, samples: samples).write(toFile: path)
            return path
        }

        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    }

    static let wideband = AudioFormat(sampleRate: 16000, channels: 1)

    /// The normalised cross-correlation of `a` and `b` (same length).
    static func correlation(_ a: ArraySlice<Int16>, _ b: ArraySlice<Int16>) -> Double {
        var product = 0.0, energyA = 0.0, energyB = 0.0
        for (x, y) in zip(a, b) {
            product += Double(x) * Double(y)
            energyA += Double(x) * Double(x)
            energyB += Double(y) * Double(y)
        }
        return product / max((energyA * energyB).squareRoot(), 1)
    }

    /// The lag (in samples, among `lags`) at which `heard` best matches `speech[range]`, with that
    /// match's correlation.
    static func alignment(of heard: [Int16], to speech: [Int16], over range: Range<Int>, lags: ClosedRange<Int>) -> (lag: Int, correlation: Double) {
        lags.map { lag in
            (lag, correlation(speech[range], heard[(range.lowerBound + lag)..<(range.upperBound + lag)]))
        }.max { $0.1 < $1.1 } ?? (0, 0)
    }

    /// `count` packets of 20 ms at Opus' 48 kHz clock, sent from t = 0 and arriving 40 ms later
    /// (the clean scenario's path), except those `lost`.
    static func opusTrace(count: Int, lost: Set<Int> = []) -> [TracePacket] {
        (0..<count).map { (index: Int) -> TracePacket in
            let sent = Double(index) * 20
            return TracePacket(
                sequenceNumber: UInt64(index), rtpTimestamp: UInt64(index) * 960, sendMilliseconds: sent,
                arrivalMilliseconds: lost.contains(index) ? nil : sent + 40, payloadBytes: 100
            )
        }
    }

    @Test func scenariosAreStampedAtTheCodecsClockWithTheSameFates() {
        let narrowband = JitterBenchTrace.scenario(.heavyJitter).trace.packets
        let opus = JitterBenchTrace.scenario(.heavyJitter, clockRate: 48000)
        #expect(opus.clockRate == 48000 && opus.samplesPerFrame == 960)
        #expect(opus.trace.packets.count == narrowband.count)
        #expect(
            zip(opus.trace.packets, narrowband).allSatisfy {
                $0.sequenceNumber == $1.sequenceNumber && $0.sendMilliseconds == $1.sendMilliseconds
                    && $0.arrivalMilliseconds == $1.arrivalMilliseconds
            })
        let steps = zip(opus.trace.packets, opus.trace.packets.dropFirst()).map { $1.rtpTimestamp - $0.rtpTimestamp }
        #expect(steps.allSatisfy { $0 == 960 })
    }

    @Test func opusOnACleanPathPlaysTheSpeechAtItsOwnRate() throws {
        let folder = try Folder()
        let trace = folder.path("clean.csv")
        try TraceCSV.write(NetworkTrace(packets: Self.opusTrace(count: 200))).write(toFile: trace, atomically: true, encoding: .utf8)
        let speech = SpeechLikeSignal.samples(sampleRate: 16000, seconds: 4)
        let input = try folder.wav("speech.wav", speech, Self.wideband)
        let output = folder.path("heard.wav")
        let run = Invocation(["simulate", "--trace", trace, "--codec", "opus", "--audio", input, "--output", output])
        #expect(run.status == 0, "\(run.standardError)")
        let heard = try WAVAudio(contentsOfFile: output)
        #expect(heard.format == Self.wideband)
        // One 10 ms pull from the first arrival (40 ms) until half a second after the last (4020 ms).
        let pulls = (4520 - 40) / 10 + 1
        #expect(abs(heard.samples.count - pulls * 160) <= 320, "\(heard.samples.count) samples for \(pulls) pulls")
        // Once the buffer has settled, what is heard is the speech a constant delay later: the
        // buffer's few milliseconds and Opus' 6.5 ms lookahead (the output starts at the first arrival).
        let (lag, correlation) = Self.alignment(of: heard.samples, to: speech, over: 32000..<40000, lags: 0...800)
        #expect(correlation > 0.9, "correlation \(correlation) at \(lag) samples")
    }

    @Test func opusRecoversALostPacketFromTheNextOnesFEC() throws {
        let format = AudioFormat(sampleRate: 48000, channels: 1)
        let speech = SpeechLikeSignal.samples(sampleRate: 48000, seconds: 1.6)
        // The loudest frame after the buffer has settled is lost.
        let loudness = { (frame: Int) in speech[(frame * 960)..<((frame + 1) * 960)].reduce(0.0) { $0 + Double($1) * Double($1) } }
        let lostFrame = try #require((40..<70).max { loudness($0) < loudness($1) })
        let trace = JitterBenchTrace(
            name: "one-loss", trace: NetworkTrace(packets: Self.opusTrace(count: 80, lost: [lostFrame])), clockRate: 48000
        )
        var configuration = JitterBufferConfiguration()
        configuration.delayPolicy = .fixed(milliseconds: 40)

        var call = CallSettings()
        call.codec = .opus(bitsPerSecond: nil)
        var codecs = try call.makeCodecs(packetTimeMilliseconds: 20)
        let withFEC = try #require(try trace.encodedSpeech(speech, encoder: &codecs.encoder))
        let rendered = trace.renderOurs(withFEC, decoder: codecs.decoder, configuration: configuration)
        let heard = rendered.audio
        var plain = try OpusEncoder(configuration: OpusEncoderConfiguration(format: format))
        let withoutFEC = try #require(try trace.encodedSpeech(speech, encoder: &plain))
        let concealed = trace.renderOurs(withoutFEC, decoder: try OpusDecoder(format: format), configuration: configuration).audio

        // The output starts at the first arrival; 40 ms of buffer and 6.5 ms of lookahead later,
        // the speech plays.
        let (lag, before) = Self.alignment(of: heard, to: speech, over: 28800..<33600, lags: 1920...2880)
        #expect(before > 0.9, "packets 30–34 play as sent: correlation \(before)")
        let lost = (lostFrame * 960)..<((lostFrame + 1) * 960)
        let recovered = Self.correlation(speech[lost], heard[(lost.lowerBound + lag)..<(lost.upperBound + lag)])
        let guessed = Self.correlation(speech[lost], concealed[(lost.lowerBound + lag)..<(lost.upperBound + lag)])
        #expect(recovered > 0.8, "the lost frame, recovered by FEC: correlation \(recovered)")
        #expect(recovered > guessed + 0.1, "FEC \(recovered) against concealment alone \(guessed)")
        // The replay's records name the recovered packet as played (its score counts it).
        #expect(rendered.records.contains { $0.decodedSequenceNumbers.contains(UInt64(lostFrame)) })
    }

    @Test func pcmaPlaysTheALawRoundTripOnACleanTrace() throws {
        let folder = try Folder()
        let trace = try SyntheticTrace(count: 150) { _ in 40 }
        let narrowband = AudioFormat(sampleRate: 8000, channels: 1)
        let speech = SpeechLikeSignal.samples(sampleRate: 8000, seconds: 2)
        let input = try folder.wav("speech.wav", speech, narrowband)
        let output = folder.path("heard.wav")
        let run = Invocation([
            "simulate", "--trace", trace.file.path, "--codec", "pcma", "--jitter-buffer", "fixed:20", "--audio", input,
            "--output", output,
        ])
        #expect(run.status == 0, "\(run.standardError)")
        let heard = try WAVAudio(contentsOfFile: output).samples
        let roundTrip = speech.map { G711Law.aLaw.decode(G711Law.aLaw.encode($0)) }
        // A fixed buffer on a clean path plays every frame in order after a constant delay.
        let start = try #require(heard.firstIndex { $0 != 0 })
        let first = try #require(roundTrip.firstIndex { $0 != 0 })
        #expect(Array(heard[start..<(start + 8000)]) == Array(roundTrip[first..<(first + 8000)]))
    }

    @Test func badCombinationsAreUsageErrorsNamingTheFlag() throws {
        let folder = try Folder()
        let wideband = try folder.wav("wideband.wav", [Int16](repeating: 0, count: 1600), Self.wideband)
        let stereo = try folder.wav("stereo.wav", [Int16](repeating: 0, count: 9600), AudioFormat(sampleRate: 48000, channels: 2))
        let cd = try folder.wav("cd.wav", [Int16](repeating: 0, count: 4410), AudioFormat(sampleRate: 44100, channels: 1))
        let tiny = try folder.wav("tiny.wav", [Int16](repeating: 0, count: 100), Self.wideband)
        let output = folder.path("heard.wav")
        let cases: [([String], String)] = [
            (["--codec", "g722"], "--codec: expected pcmu, pcma or opus[:BITRATE], got 'g722'"),
            (["--codec", "opus:1000"], "--codec: Opus bitrate '1000' is not a number from 6000 to 510000 bit/s"),
            (
                ["--codec", "opus", "--clock-rate", "8000", "--audio", wideband, "--output", output],
                "--clock-rate: opus packets are stamped at 48000 Hz, not 8000 Hz"
            ),
            (["--audio", wideband, "--output", output], "--audio: PCMU takes mono speech at 8000 Hz, \(wideband) is 16000 Hz mono"),
            (
                ["--codec", "opus", "--audio", cd, "--output", output],
                "--audio: opus takes mono speech at 8000, 12000, 16000, 24000, 48000 Hz, \(cd) is 44100 Hz mono"
            ),
            (
                ["--codec", "opus", "--audio", stereo, "--output", output],
                "--audio: opus takes mono speech at 8000, 12000, 16000, 24000, 48000 Hz, \(stereo) is 48000 Hz stereo"
            ),
            (["--codec", "opus", "--audio", tiny, "--output", output], "--audio: \(tiny) is shorter than one packet"),
            (["--codec", "opus", "--audio", wideband], "--audio and --output go together"),
        ]
        for (flags, message) in cases {
            let run = Invocation(["simulate", "--scenario", "clean"] + flags)
            #expect(run.status == 2, "\(flags)")
            #expect(run.standardError == "mediabench simulate: \(message)\n")
        }
    }

    @Test func opusCannotCarryPacketsOfAnOddLength() throws {
        let folder = try Folder()
        let input = try folder.wav("speech.wav", [Int16](repeating: 0, count: 16000), Self.wideband)
        let trace = folder.path("trace.csv")
        try "seq,rtp_ts,send_ms,arrival_ms,payload_bytes\n0,0,0,40,60\n1,1200,25,65,60\n".write(
            toFile: trace, atomically: true, encoding: .utf8
        )
        let run = Invocation([
            "simulate", "--trace", trace, "--frame-ms", "25", "--codec", "opus", "--audio", input, "--output", folder.path("out.wav"),
        ])
        #expect(run.status == 2)
        #expect(run.standardError.hasPrefix("mediabench simulate: --frame-ms: opus cannot carry 25 ms packets ("), "\(run.standardError)")
    }
}
