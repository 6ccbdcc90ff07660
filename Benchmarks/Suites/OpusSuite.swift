import BenchmarkHarness
import Codecs
import Foundation

extension BenchmarkSuite {
    /// Opus encode and decode through our wrapper against the same calls made from C
    /// (`Benchmarks/peers/opus.c`), at 48 kHz mono, 20 ms frames, VOIP, 32 kb/s:
    /// - `encode-50-frames-c5`, `-c10`, `decode-50-frames`: one operation is one second of audio
    ///   (50 frames) from a reset state, so ours and the peer do identical work per operation
    ///   whatever batch sizes the harness picks (libopus' cost depends on its mode history);
    /// - `…-per-frame`: every frame timed alone over ten seconds from a fresh state, median, p95
    ///   and p99 in microseconds;
    /// - `algorithmic-latency-20ms`: frame plus `OPUS_GET_LOOKAHEAD`.
    static let opus = BenchmarkSuite(
        name: "opus",
        summary: "Opus 48 kHz mono 20 ms VOIP encode/decode, ours vs C on libopus; per-frame p99; algorithmic latency"
    ) { context in
        let format = AudioFormat(sampleRate: 48_000, channels: 1)
        let frameSamples = 960
        let bitrate = 32_000
        let passFrames = 50
        let workload = OpusWorkload(frames: context.options.isQuick ? 100 : 500, frameSamples: frameSamples)
        let folder = FileManager.default.temporaryDirectory
        let passInput = folder.appendingPathComponent("opus-bench-pass-\(getpid()).raw")
        let longInput = folder.appendingPathComponent("opus-bench-\(getpid()).raw")
        try workload.write(frames: passFrames, to: passInput)
        try workload.write(frames: workload.frameCount, to: longInput)
        defer {
            try? FileManager.default.removeItem(at: passInput)
            try? FileManager.default.removeItem(at: longInput)
        }
        let peer = PeerProgram("opus", pkgConfigPackages: ["opus"])
        func peerArguments(_ input: URL, complexity: Int) -> [String] {
            [input.path, "48000", "1", String(frameSamples), String(complexity), String(bitrate)]
        }

        for complexity in [5, 10] {
            let encoder = try OpusEncoder(
                configuration: OpusEncoderConfiguration(
                    format: format, bitrate: .bitsPerSecond(bitrate), complexity: complexity))
            let packet = UnsafeMutableRawBufferPointer.allocate(byteCount: OpusEncoder.maximumPacketBytes, alignment: 1)
            defer { packet.deallocate() }
            context.measure(
                BenchmarkCase(
                    "encode-50-frames-c\(complexity)", countsAllocations: true,
                    implementations: [
                        .ours { iterations in
                            for _ in 0..<iterations {
                                try encoder.reset()
                                for frame in 0..<passFrames {
                                    blackHole(try encoder.encode(workload.frame(frame), into: packet))
                                }
                            }
                        },
                        .program(peer, caseName: "encode", arguments: peerArguments(passInput, complexity: complexity)),
                    ]))
        }

        let packets = try workload.encoded(
            frames: passFrames,
            OpusEncoderConfiguration(
                format: format, bitrate: .bitsPerSecond(bitrate), complexity: 10))
        let decoder = try OpusDecoder(format: format)
        let pcm = UnsafeMutableBufferPointer<Int16>.allocate(capacity: 5760)
        defer { pcm.deallocate() }
        context.measure(
            BenchmarkCase(
                "decode-50-frames", countsAllocations: true,
                implementations: [
                    .ours { iterations in
                        for _ in 0..<iterations {
                            try decoder.reset()
                            for frame in 0..<passFrames {
                                blackHole(try packets.withPacket(frame) { try decoder.decode($0, into: pcm) })
                            }
                        }
                    },
                    .program(peer, caseName: "decode", arguments: peerArguments(passInput, complexity: 10)),
                ]))

        for complexity in [5, 10] {
            try recordFrameTimes(
                context, workload: workload, peer: peer, complexity: complexity, bitrate: bitrate,
                peerArguments: peerArguments(longInput, complexity: complexity))
        }
        try recordLatency(context, peer: peer)
    }

    /// Times each frame alone, ours and the peer's, and records median and p99 in microseconds.
    private static func recordFrameTimes(
        _ context: BenchmarkContext, workload: OpusWorkload, peer: PeerProgram, complexity: Int, bitrate: Int,
        peerArguments: [String]
    ) throws {
        let encoder = try OpusEncoder(
            configuration: OpusEncoderConfiguration(
                bitrate: .bitsPerSecond(bitrate), complexity: complexity))
        let decoder = try OpusDecoder()
        // Like the peer, every frame is timed alone from a fresh encoder and decoder.
        let packet = UnsafeMutableRawBufferPointer.allocate(byteCount: OpusEncoder.maximumPacketBytes, alignment: 1)
        let pcm = UnsafeMutableBufferPointer<Int16>.allocate(capacity: 5760)
        defer {
            packet.deallocate()
            pcm.deallocate()
        }
        let count = workload.frameCount * 2
        var ours = (encode: [Double](), decode: [Double]())
        ours.encode.reserveCapacity(count)
        ours.decode.reserveCapacity(count)
        let clock = ContinuousClock()
        for iteration in 0..<count {
            let start = clock.now
            let bytes = try encoder.encode(workload.frame(iteration), into: packet)
            let middle = clock.now
            blackHole(try decoder.decode(UnsafeRawBufferPointer(rebasing: packet[..<bytes]), into: pcm))
            let end = clock.now
            ours.encode.append(microseconds(middle - start))
            ours.decode.append(microseconds(end - middle))
        }
        let output = try peer.run(["frame-times", String(count)] + peerArguments)
        let lines = output.split(whereSeparator: \.isNewline).map { $0.split(separator: " ") }
        let theirs = (
            encode: lines.first { $0.first == "encode_ns" }?.dropFirst().compactMap { Double($0).map { $0 / 1000 } } ?? [],
            decode: lines.first { $0.first == "decode_ns" }?.dropFirst().compactMap { Double($0).map { $0 / 1000 } } ?? []
        )
        let peerName = try peer.version()
        for (operation, oursTimes, theirTimes) in [
            ("encode", ours.encode, theirs.encode), ("decode", ours.decode, theirs.decode),
        ] {
            let caseName = "\(operation)-20ms-c\(complexity)-per-frame"
            let ourMedian = Statistics.median(oursTimes)
            for (implementation, times) in [("ours", oursTimes), (peerName, theirTimes)] {
                var row = BenchmarkRow(
                    suite: context.suite, caseName: caseName, implementation: implementation, unit: "µs/frame",
                    median: Statistics.median(times), p95: Statistics.percentile(95, of: times), runs: times.count)
                if let p99 = Statistics.percentile(99, of: times) { row.setField("p99_us", .number(p99)) }
                if implementation != "ours", let ourMedian, let theirMedian = row.median, theirMedian > 0 {
                    row.ratioOursToPeer = ourMedian / theirMedian
                }
                context.record(row)
            }
        }
    }

    /// Records the algorithmic latency (frame + lookahead) our encoder reports and libopus' own.
    private static func recordLatency(_ context: BenchmarkContext, peer: PeerProgram) throws {
        let encoder = try OpusEncoder()
        let peerLookahead =
            Double(
                try peer.run(["lookahead", "48000", "1"])
                    .trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan
        let peerName = try peer.version()
        for (implementation, lookahead) in [("ours", Double(encoder.lookaheadSamples)), (peerName, peerLookahead)] {
            let milliseconds = (Double(encoder.samplesPerFrame) + lookahead) / 48
            var row = BenchmarkRow(
                suite: context.suite, caseName: "algorithmic-latency-20ms", implementation: implementation, unit: "ms",
                median: milliseconds, p95: nil, runs: nil)
            row.setField("frame_ms", .number(20))
            row.setField("lookahead_ms", .number(lookahead / 48))
            context.record(row)
        }
    }

    private static func microseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    }
}

/// A deterministic vowel-like signal at 48 kHz (12 harmonics of a 120 Hz voice with a slight
/// vibrato, over a faint hiss), held once and cut into 20 ms frames.
private final class OpusWorkload {
    let frameCount: Int
    let frameSamples: Int
    private let samples: UnsafeMutableBufferPointer<Int16>

    init(frames: Int, frameSamples: Int) {
        frameCount = frames
        self.frameSamples = frameSamples
        samples = .allocate(capacity: frames * frameSamples)
        var noise: UInt32 = 12_345
        for index in samples.indices {
            let time = Double(index) / 48_000
            let pitch = 120 + 5 * sin(2 * .pi * 5 * time)
            var voiced = 0.0
            for harmonic in 1...12 {
                voiced += sin(2 * .pi * pitch * Double(harmonic) * time) / Double(harmonic)
            }
            noise = noise &* 1_664_525 &+ 1_013_904_223
            let hiss = Double(Int32(bitPattern: noise) >> 20)
            samples[index] = Int16(clamping: Int((4000 * voiced + hiss).rounded()))
        }
    }

    deinit {
        samples.deallocate()
    }

    /// The frame for iteration `iteration`, cycling from the first.
    func frame(_ iteration: Int) -> UnsafeBufferPointer<Int16> {
        let start = (iteration % frameCount) * frameSamples
        return UnsafeBufferPointer(rebasing: samples[start..<start + frameSamples])
    }

    /// Writes the first `frames` frames as raw 16-bit native-endian PCM for the C peer.
    func write(frames: Int, to url: URL) throws {
        try Data(buffer: UnsafeBufferPointer(rebasing: samples[..<(frames * frameSamples)])).write(to: url)
    }

    /// The first `frames` frames encoded with `configuration` by a fresh encoder.
    func encoded(frames: Int, _ configuration: OpusEncoderConfiguration) throws -> OpusPackets {
        let encoder = try OpusEncoder(configuration: configuration)
        var packets = OpusPackets()
        var buffer = [UInt8](repeating: 0, count: OpusEncoder.maximumPacketBytes)
        for index in 0..<frames {
            let bytes = try buffer.withUnsafeMutableBytes { try encoder.encode(frame(index), into: $0) }
            packets.append(buffer[..<bytes])
        }
        return packets
    }
}

/// Packets stored back to back, read without copying.
private struct OpusPackets {
    private var bytes: [UInt8] = []
    private var bounds: [Range<Int>] = []

    mutating func append(_ packet: ArraySlice<UInt8>) {
        bounds.append(bytes.count..<bytes.count + packet.count)
        bytes += packet
    }

    /// Calls `body` with the packet for iteration `iteration`, cycling from the first.
    func withPacket<Result>(_ iteration: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let range = bounds[iteration % bounds.count]
        return try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }
}
