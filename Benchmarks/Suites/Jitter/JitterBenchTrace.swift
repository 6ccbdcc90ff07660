import Foundation
import Jitter
import PlayoutLab
import NetworkModel

/// A network trace the jitter-buffer benchmark replays, with what it takes to replay it.
public struct JitterBenchTrace: Sendable {
    /// The case name: the scenario's name or the file's name.
    public let name: String
    /// The packets.
    public let trace: NetworkTrace
    /// The RTP clock rate.
    public let clockRate: Int
    /// Audio per packet in milliseconds.
    public let frameMilliseconds: Int

    /// A trace to replay.
    public init(name: String, trace: NetworkTrace, clockRate: Int = 8000, frameMilliseconds: Int = 20) {
        self.name = name
        self.trace = trace
        self.clockRate = clockRate
        self.frameMilliseconds = frameMilliseconds
    }

    /// RTP timestamp units per packet.
    public var samplesPerFrame: Int { clockRate * frameMilliseconds / 1000 }

    /// The rows as the playout simulator takes them.
    public var simulatedPackets: [SimulatedPacket] {
        trace.packets.map {
            SimulatedPacket(
                sequenceNumber: $0.sequenceNumber, rtpTimestamp: $0.rtpTimestamp, sendMilliseconds: $0.sendMilliseconds,
                arrivalMilliseconds: $0.arrivalMilliseconds
            )
        }
    }

    /// The named scenario's trace for `seed`; `durationSeconds` shortens it (for `--quick`), and
    /// `clockRate` counts its timestamps at another RTP clock (48 000 for Opus) than the
    /// scenario's 8000 Hz, with the same packets, delays and losses.
    public static func scenario(
        _ scenario: NetworkScenario, seed: UInt64 = 1, durationSeconds: Double? = nil, clockRate: Int? = nil
    ) -> JitterBenchTrace {
        var profile = scenario.profile
        if let durationSeconds { profile.durationSeconds = durationSeconds }
        if let clockRate { profile.clockRate = clockRate }
        let generated = TraceGenerator(profile: profile).generate(seed: seed)
        return JitterBenchTrace(
            name: scenario.rawValue, trace: generated.trace, clockRate: profile.clockRate,
            frameMilliseconds: Int(profile.frameMilliseconds)
        )
    }

    /// A trace file: an rtpdump file (it starts with `#!rtpplay`) or a trace CSV.
    public static func file(_ path: String, clockRate: Int = 8000, frameMilliseconds: Int = 20) throws -> JitterBenchTrace {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let name = URL(fileURLWithPath: path).lastPathComponent
        let trace: NetworkTrace
        if bytes.starts(with: Array("#!rtpplay".utf8)) {
            trace = try RTPDump.trace(from: bytes, clockRate: clockRate)
        } else {
            trace = try TraceCSV.read(String(decoding: bytes, as: UTF8.self))
        }
        return JitterBenchTrace(name: name, trace: trace, clockRate: clockRate, frameMilliseconds: frameMilliseconds)
    }

    /// The real rtpdump traces kept in the repository (`Tests/Fixtures/traces`), those that are there.
    public static var recordedTraceFiles: [String] {
        let folder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Jitter
            .deletingLastPathComponent()  // Suites
            .deletingLastPathComponent()  // Benchmarks
            .deletingLastPathComponent()  // package
            .appendingPathComponent("Tests/Fixtures/traces", isDirectory: true)
        return ["stereo_pcmu_jitter.rtp", "stereo_pcmu_vad_jitter.rtp"]
            .map { folder.appendingPathComponent($0).path }
            .filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// Replays the trace through our buffer (or the fixed baseline) and scores the playout.
    public func scoreOurs(configuration: JitterBufferConfiguration = JitterBufferConfiguration()) -> PlayoutScore {
        let packets = simulatedPackets
        let simulator = PlayoutSimulator(clockRate: clockRate, samplesPerFrame: samplesPerFrame, configuration: configuration)
        return PlayoutScore(trace: packets, records: simulator.play(packets), clockRate: clockRate, samplesPerFrame: samplesPerFrame)
    }

    /// Scores what a peer played with the same scorer as ours: each peer pull becomes 10 ms
    /// playout records (a played frame at its timestamp; a missing one concealed at the position
    /// the peer was due to play; buffering as comfort noise that does not advance the media).
    public func score(_ playout: PeerPlayout) -> PlayoutScore {
        let packets = simulatedPackets
        var timestamps: [Int64: UInt64] = [:]
        for packet in packets { timestamps[Int64(packet.sequenceNumber)] = packet.rtpTimestamp }
        let frame = UInt64(samplesPerFrame)
        let pullsPerFrame = max(frameMilliseconds / 10, 1)
        let step = frame / UInt64(pullsPerFrame)
        var records: [PlayoutRecord] = []
        var nextPosition: UInt64?
        for pull in playout.pulls {
            var kind = PlayoutDecision.Kind.normal
            var decoded: [UInt64] = []
            var start: UInt64
            switch pull.outcome {
            case let .played(sequence):
                guard let timestamp = timestamps[sequence] else { continue }
                start = timestamp
                decoded = [UInt64(sequence)]
                nextPosition = timestamp + frame
            case .missing:
                guard let position = nextPosition else { continue }
                kind = .conceal
                start = position
                nextPosition = position + frame
            case .buffering:
                guard let position = nextPosition else { continue }
                kind = .comfortNoise
                start = position
            }
            for part in 0..<pullsPerFrame {
                records.append(
                    PlayoutRecord(
                        timeMilliseconds: pull.timeMilliseconds + Double(part * 10), kind: kind,
                        rtpTimestamp: kind == .comfortNoise ? start : start + UInt64(part) * step,
                        decodedSequenceNumbers: part == 0 ? decoded : [], pullMicroseconds: 0
                    )
                )
            }
        }
        return PlayoutScore(trace: packets, records: records, clockRate: clockRate, samplesPerFrame: samplesPerFrame)
    }
}
