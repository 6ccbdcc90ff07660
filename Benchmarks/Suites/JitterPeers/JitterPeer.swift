import BenchmarkHarness
import Foundation

/// An outside jitter buffer that replays a network trace CSV by the protocol of
/// `Benchmarks/peers/JITTER-PEERS.md`: `PROGRAM jitter TRACE.csv FRAME_MS CLOCK_RATE KNOB`.
///
/// ```swift
/// for peer in JitterPeer.all {
///     for knob in peer.knobSettings {
///         let playout = try peer.replay(trace: url, frameMilliseconds: 20, clockRate: 8000, knob: knob)
///         // score playout.pulls with the same code as ours
///     }
/// }
/// ```
public struct JitterPeer: Sendable {
    /// Short name (`speexdsp`, `gstreamer`, `pjmedia`).
    public let name: String
    /// How the peer is built and started.
    public let program: Program
    /// The peer's main knob, as the peer names it (`latency`).
    public let knobName: String
    /// The unit of the knob's values (`ms`).
    public let knobUnit: String
    /// The knob values a benchmark sweeps, ascending.
    public let knobValues: [Int]
    /// The value the peer uses when left alone (what it reports for `.default`).
    public let defaultKnob: Int

    /// How a peer program is built and run.
    public enum Program: Sendable {
        /// A C program in `Benchmarks/peers/`, built and run by this ``PeerProgram``.
        case c(PeerProgram)
        /// `Benchmarks/peers/<script>`, run by `python3` from `PATH`.
        case python(script: String)
    }

    /// A setting of the main knob for one replay.
    public enum Knob: Sendable, Equatable, CustomStringConvertible {
        /// Whatever the peer does when not told (the `default` argument).
        case `default`
        /// This value, in the peer's knob unit.
        case value(Int)

        /// The program argument: `default`, or the value.
        public var description: String {
            switch self {
            case .default: "default"
            case .value(let value): String(value)
            }
        }
    }

    /// The settings a benchmark replays: the default first, then every swept value other
    /// than the default's.
    public var knobSettings: [Knob] {
        [.default] + knobValues.filter { $0 != defaultKnob }.map(Knob.value)
    }

    /// Replays `trace` (a network trace CSV) with one pull every `frameMilliseconds` and returns
    /// what the peer played. C peers are built first if their executable is missing or stale.
    public func replay(
        trace: URL,
        frameMilliseconds: Double,
        clockRate: Int,
        knob: Knob
    ) throws(JitterPeerError) -> PeerPlayout {
        let arguments = ["jitter", trace.path, String(frameMilliseconds), String(clockRate), knob.description]
        let output: String
        switch program {
        case .c(let peerProgram):
            do {
                output = try peerProgram.run(arguments)
            } catch {
                throw .runFailed(peer: name, message: error.description)
            }
        case .python(let script):
            let scriptFile = PeerDirectories.package.source.appendingPathComponent(script)
            let result: Subprocess.Output
            do {
                result = try Subprocess.run(searchingPath: ["python3", scriptFile.path] + arguments)
            } catch {
                throw .runFailed(peer: name, message: "cannot start python3: \(error)")
            }
            guard result.status == 0 else {
                let message = result.standardError.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
                throw .runFailed(peer: name, message: "exited with status \(result.status): \(message)")
            }
            output = result.standardOutput
        }
        return try PeerPlayout(parsing: output, peer: name)
    }
}

extension JitterPeer {
    /// speexdsp's adaptive jitter buffer; knob: `JITTER_BUFFER_SET_MAX_LATE_RATE`, the late-packet
    /// rate (percent) it tolerates before growing its delay.
    public static let speexdsp = JitterPeer(
        name: "speexdsp",
        program: .c(PeerProgram("jitter-speexdsp", pkgConfigPackages: ["speexdsp"], extraArguments: ["-lm"])),
        knobName: "max_late_rate", knobUnit: "percent",
        knobValues: [1, 2, 4, 8, 16], defaultKnob: 4
    )

    /// GStreamer's rtpjitterbuffer in a GstHarness with a test clock; knob: `latency` (ms), the
    /// delay a GStreamer sink plays each packet at, and how long a gap waits before it is lost.
    public static let gstreamer = JitterPeer(
        name: "gstreamer",
        program: .c(PeerProgram("jitter-gstreamer", pkgConfigPackages: ["gstreamer-check-1.0"], extraArguments: ["-lm"])),
        knobName: "latency", knobUnit: "ms",
        knobValues: [20, 40, 60, 100, 200, 400], defaultKnob: 200
    )

    /// PJSIP's adaptive jbuf through ctypes (`pjsua2-python` wheel), with pjsua's stream defaults;
    /// knob: the prefetch (frames) it refills to each time it runs empty (0: no prefetch).
    public static let pjmedia = JitterPeer(
        name: "pjmedia",
        program: .python(script: "jitter-pjmedia.py"),
        knobName: "prefetch", knobUnit: "frames",
        knobValues: [0, 2, 4, 8], defaultKnob: 0
    )

    /// Every jitter peer, in the order benchmarks list them.
    public static let all: [JitterPeer] = [.speexdsp, .gstreamer, .pjmedia]
}
