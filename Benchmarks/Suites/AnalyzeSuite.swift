import BenchmarkHarness
import Capture
import Foundation
import RTP

extension BenchmarkSuite {
    /// `mediabench analyze` against `tshark -n -q -z rtp,streams` on the same generated capture
    /// (1 million RTP packets; 100 000 with `--quick`), each run as a child process: wall time
    /// per run (the row's unit, seconds), packets per second, CPU time (user + system) and peak
    /// memory (max RSS), from `wait4`. Both print their per-stream table as text (ours: the
    /// default text report). The like-for-like case runs ours with `--no-jitter-replay` (tshark
    /// computes stream statistics only); a second case runs ours as it runs by default,
    /// replaying every stream through our jitter buffer. The programs run in turn, several
    /// rounds (5; 1 with `--quick`), and each row is the median and p95 over its rounds (on a
    /// virtual machine the host's wake-ups and memory make single runs vary by a third). As in
    /// every suite, the peer's row carries our median over its own (`ratio_ours_to_peer`,
    /// seconds: below 1 means ours is faster), and the same for CPU time
    /// (`cpu_ratio_ours_to_peer`), which a loaded machine inflates less than wall time.
    /// tshark's start-up (the same command on an empty capture) is measured apart and given on
    /// its row, with the ratio against tshark's time without it. Ours also runs on a file four
    /// times as long, replay included, to show that its memory does not grow with the capture.
    static let analyze = BenchmarkSuite(
        name: "analyze",
        summary: "Capture analysis throughput and peak memory vs tshark -z rtp,streams (1M RTP packets)"
    ) { context in
        let packets = context.options.isQuick ? 100_000 : 1_000_000
        let rounds = context.options.isQuick ? 1 : 5
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mediabench-analyze-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let single = directory.appendingPathComponent("rtp-1x.pcap").path
            let quadruple = directory.appendingPathComponent("rtp-4x.pcap").path
            let empty = directory.appendingPathComponent("rtp-0.pcap").path
            let written = try AnalyzeBenchmarkCapture.write(packets: packets, to: single)
            let writtenLong = try AnalyzeBenchmarkCapture.write(packets: 4 * packets, to: quadruple)
            _ = try AnalyzeBenchmarkCapture.write(packets: 0, to: empty)
            func tsharkCommand(_ path: String) -> [String] {
                ["/usr/bin/env", "tshark", "-n", "-q", "-r", path, "--enable-heuristic", "rtp_udp", "-z", "rtp,streams"]
            }
            var statisticsOnly: [ChildProcess.Measurement] = []
            var ours: [ChildProcess.Measurement] = []
            var tshark: [ChildProcess.Measurement] = []
            var tsharkStartup: [ChildProcess.Measurement] = []
            for _ in 0..<rounds {
                statisticsOnly.append(try ChildProcess.measure([ChildProcess.currentExecutable, "analyze", "--no-jitter-replay", single]))
                tshark.append(try ChildProcess.measure(tsharkCommand(single)))
                ours.append(try ChildProcess.measure([ChildProcess.currentExecutable, "analyze", single]))
                tsharkStartup.append(try ChildProcess.measure(tsharkCommand(empty)))
            }
            let oursLong = try ChildProcess.measure([ChildProcess.currentExecutable, "analyze", quadruple])
            let caseName = "analyze-\(packets / 1000)k-rtp-packets"
            let tsharkName = "tshark \(ChildProcess.tsharkVersion())"
            let startup = Statistics.median(tsharkStartup.map(\.seconds)) ?? 0
            let peer = ChildProcess.row(tshark, suite: context.suite, caseName: caseName, implementation: tsharkName, packets: written)
            let tsharkSeconds = peer.median ?? .nan
            let tsharkCPUSeconds = Statistics.median(tshark.map(\.cpuSeconds)) ?? .nan
            for (name, runs) in [(caseName, statisticsOnly), (caseName + "-with-jitter-replay", ours)] {
                let row = ChildProcess.row(runs, suite: context.suite, caseName: name, implementation: "ours", packets: written)
                context.record(row)
                let oursSeconds = row.median ?? .nan
                var peerRow = peer
                peerRow.caseName = name
                peerRow.ratioOursToPeer = oursSeconds / tsharkSeconds
                peerRow.setField("startup_s", .number(startup))
                peerRow.setField("ratio_ours_to_peer_without_startup", .number(oursSeconds / (tsharkSeconds - startup)))
                peerRow.setField(
                    "cpu_ratio_ours_to_peer", .number((Statistics.median(runs.map(\.cpuSeconds)) ?? .nan) / tsharkCPUSeconds))
                context.record(peerRow)
            }
            var memory = ChildProcess.row(
                [oursLong], suite: context.suite, caseName: "analyze-4x-file-peak-memory",
                implementation: "ours", packets: writtenLong)
            let peakSingle = ours.map(\.maximumResidentKilobytes).max() ?? 0
            memory.setField("max_rss_kb_1x", .integer(peakSingle))
            memory.setField("max_rss_kb_4x", .integer(oursLong.maximumResidentKilobytes))
            memory.setField(
                "rss_ratio_4x_to_1x",
                .number(Double(oursLong.maximumResidentKilobytes) / Double(max(peakSingle, 1))))
            context.record(memory)
        } catch {
            context.recordFailure(nil, error)
        }
    }
}

/// The capture the analyze suite measures: 50 G.711 streams of 20 ms packets, interleaved in
/// time, with a little deterministic jitter and one packet in 200 missing.
enum AnalyzeBenchmarkCapture {
    /// Writes the capture of `packets` sequence slots (one in 200 left empty) and returns the
    /// number of packets written.
    static func write(packets: Int, to path: String) throws -> Int {
        var written = 0
        var writer = try PcapWriter(path: path, linkType: .ethernet)
        let streams = 50
        var rtp = [UInt8](repeating: 0, count: 12 + 160)
        for index in 0..<packets {
            let stream = index % streams
            let sequence = index / streams
            if sequence % 200 == 199 { continue }
            let header = RTPHeaderFields(
                payloadType: 8, sequenceNumber: SequenceNumber(UInt16(truncatingIfNeeded: sequence)),
                timestamp: RTPTimestamp(UInt32(truncatingIfNeeded: sequence * 160)), ssrc: UInt32(0x1000 + stream))
            let length = try rtp.withUnsafeMutableBytes { buffer in
                var builder = try RTPPacketBuilder(into: buffer, header: header)
                try builder.commitPayload(byteCount: 160)
                return try builder.finish()
            }
            let source = UDPEndpoint(address: .v4(IPv4Address(10, 0, 0, 1)), port: UInt16(20_000 + 2 * stream))
            let destination = UDPEndpoint(address: .v4(IPv4Address(10, 0, 0, 2)), port: UInt16(30_000 + 2 * stream))
            let jitterMicroseconds = Int64((sequence &* 7919 &+ stream &* 104_729) % 3000)
            let nanoseconds =
                1_700_000_000_000_000_000 + Int64(sequence) * 20_000_000 + Int64(stream) * 100_000
                + jitterMicroseconds * 1000
            let frame = try UDPFrameBuilder.ethernetFrame(from: source, to: destination, payload: Array(rtp[..<length]))
            frame.withUnsafeBytes { writer.write($0, timestamp: CaptureTimestamp(nanosecondsSinceEpoch: nanoseconds)) }
            written += 1
        }
        try writer.finish()
        return written
    }
}

/// Runs a program as a child process and measures its wall time and peak memory.
enum ChildProcess {
    struct Measurement {
        /// Wall time.
        var seconds: Double
        /// User and system time of the child.
        var cpuSeconds: Double
        var maximumResidentKilobytes: Int
    }

    /// One row from several runs of the same command: the wall time's median and p95 (seconds
    /// per run), the median rate (packets/s) and CPU time, and the largest peak memory.
    static func row(_ runs: [Measurement], suite: String, caseName: String, implementation: String, packets: Int) -> BenchmarkRow {
        let seconds = runs.map(\.seconds)
        var row = BenchmarkRow(
            suite: suite, caseName: caseName, implementation: implementation, unit: "s",
            median: Statistics.median(seconds), p95: Statistics.percentile(95, of: seconds), runs: runs.count)
        row.setField("packets_per_s", .number(Statistics.median(seconds.map { Double(packets) / $0 }) ?? 0))
        row.setField("cpu_s", .number(Statistics.median(runs.map(\.cpuSeconds)) ?? 0))
        row.setField("max_rss_kb", .integer(runs.map(\.maximumResidentKilobytes).max() ?? 0))
        return row
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The running program (`mediabench`), so that our analysis runs as a child like tshark's.
    static var currentExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Runs `arguments` (the first is the program's path) with its output discarded; throws
    /// when it cannot start or exits with a failure.
    static func measure(_ arguments: [String]) throws -> Measurement {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        let start = DispatchTime.now().uptimeNanoseconds
        var child: pid_t = 0
        let spawned = posix_spawn(&child, arguments[0], &actions, nil, &cArguments, environ)
        guard spawned == 0 else {
            throw Failure(description: "cannot start \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        guard wait4(child, &status, 0, &usage) == child else {
            throw Failure(description: "cannot wait for \(arguments[0])")
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard status == 0 else {
            throw Failure(description: "\(arguments.joined(separator: " ")) failed with status \(status)")
        }
        func inSeconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return Measurement(
            seconds: seconds, cpuSeconds: inSeconds(usage.ru_utime) + inSeconds(usage.ru_stime),
            maximumResidentKilobytes: Int(usage.ru_maxrss))
    }

    /// tshark's version number (`4.0.17`), or `unknown`.
    static func tsharkVersion() -> String {
        guard let output = try? Subprocess.run(searchingPath: ["tshark", "--version"]) else { return "unknown" }
        return output.standardOutput.split(separator: " ").dropFirst(2).first.map(String.init) ?? "unknown"
    }
}
