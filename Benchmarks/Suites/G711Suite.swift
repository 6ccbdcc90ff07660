import BenchmarkHarness
import Codecs

extension BenchmarkSuite {
    /// G.711 encode and decode of one 20 ms frame, ours against spandsp's C G.711
    /// (`peers/g711-spandsp.c`) and Python's audioop (`peers/g711-audioop.c`), plus our
    /// decoder with Appendix I concealment, and each codec's algorithmic latency.
    static let g711 = BenchmarkSuite(
        name: "g711",
        summary: "G.711 µ-law/A-law encode and decode per 20 ms frame vs spandsp and audioop"
    ) { context in
        let frame = 160
        let pcm = UnsafeMutableBufferPointer<Int16>.allocate(capacity: frame)
        let codes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: frame)
        defer {
            pcm.deallocate()
            codes.deallocate()
        }
        // The peers use the same input: a sweep over the 16-bit range and over the codes.
        for index in 0..<frame {
            pcm[index] = Int16(truncatingIfNeeded: index * 409 - 32768)
            codes[index] = UInt8(truncatingIfNeeded: index * 37)
        }
        let peers: [Implementation] = [
            .program(PeerProgram("g711-spandsp", pkgConfigPackages: ["spandsp"])),
            .program(PeerProgram("g711-audioop")),
        ]
        for law in G711Law.allCases {
            let name = law.encodingName.lowercased()
            context.measure(
                BenchmarkCase(
                    "\(name)-encode-20ms", countsAllocations: true,
                    implementations: [
                        .ours { iterations in
                            for _ in 0..<iterations {
                                identity(law).encode(UnsafeBufferPointer(pcm), into: codes)
                                blackHole(codes)
                            }
                        }
                    ] + peers))
            context.measure(
                BenchmarkCase(
                    "\(name)-decode-20ms", countsAllocations: true,
                    implementations: [
                        .ours { iterations in
                            for _ in 0..<iterations {
                                identity(law).decode(UnsafeBufferPointer(codes), into: pcm)
                                blackHole(pcm)
                            }
                        }
                    ] + peers))
        }
        measureDecoderWithConcealment(context, codes: UnsafeRawBufferPointer(codes), pcm: pcm)
        recordLatency(context)
    }

    /// Our decoder type on a stream with one frame in four lost (Appendix I), per frame.
    private static func measureDecoderWithConcealment(
        _ context: BenchmarkContext, codes: UnsafeRawBufferPointer, pcm: UnsafeMutableBufferPointer<Int16>
    ) {
        var decoder = G711Decoder(law: .muLaw)
        context.measure(
            BenchmarkCase(
                "pcmu-decoder-appendix-i-25pct-loss", countsAllocations: true,
                implementations: [
                    .ours { iterations in
                        for iteration in 0..<iterations {
                            let written =
                                iteration % 4 == 3
                                ? try decoder.decode(lost: pcm.count, into: pcm)
                                : try decoder.decode(codes, into: pcm)
                            blackHole(written)
                        }
                    }
                ]))
    }

    /// One row per law: frame + lookahead = algorithmic latency, in milliseconds.
    private static func recordLatency(_ context: BenchmarkContext) {
        for law in G711Law.allCases {
            var row = BenchmarkRow(
                suite: context.suite, caseName: "\(law.encodingName.lowercased())-algorithmic-latency",
                implementation: "ours", unit: "ms", median: 20)
            row.setField("frame_ms", .integer(20))
            row.setField("lookahead_ms", .integer(0))
            context.record(row)
        }
    }
}
