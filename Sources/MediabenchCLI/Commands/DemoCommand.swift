import Foundation
import QualityMetrics
import CaptureAnalysis

/// `mediabench demo`: the README's main job, a call through the whole stack on a built-in
/// test signal over an impaired network (issue 7).
struct DemoCommand: Command {
    static let duration = Option(
        "duration", "SECONDS", .number(in: 1...3600), help: "Length of the call (default: 10).")
    static let scenario = Option(
        "scenario", "NAME", .string, help: "Network scenario the call goes through (default: heavy-jitter).")
    static let codec = Option(
        "codec", "pcmu|pcma|opus[:BITRATE]", .string,
        help: "Codec of the call (default: pcmu; Opus is rated with the wideband Ie,wb derived here, see the README).")
    static let outputDirectory = Option(
        "output-dir", "DIR", .string, help: "Where the HTML quality report, the audio and the capture go (default: .).")

    let name = "demo"
    let summary = "Run a demonstration call through the whole stack and write its quality report."
    let discussion = """
        Needs no arguments and nothing to download: two sessions call each other over loopback \
        UDP through an impaired network (PCMU unless --codec says otherwise, AEAD_AES_128_GCM SRTP with SDES keys, DTMF \
        digits 1234#) with a built-in speech-like signal, printing a quality line each second, \
        then a summary. Writes demo-sent.wav (what the caller said), demo-received.wav (what the \
        callee heard), demo-wire.pcap (the SRTP packets that left the relay) and report.html \
        (the offline analyzer's quality report of that capture, decrypted with the call's keys) into DIR.
        """
    var arguments: [any ArgumentDeclaring] {
        [Self.codec, Self.duration, Self.scenario, CallCommand.jitterBuffer, Self.outputDirectory]
    }

    func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        let directory = URL(fileURLWithPath: arguments[Self.outputDirectory] ?? ".")
        var settings = CallSettings()
        settings.codec = try TranscodeCodec(parsing: arguments[Self.codec] ?? "pcmu")
        settings.srtp = .aeadAES128GCM
        settings.durationSeconds = arguments[Self.duration] ?? 10
        settings.scenario = try CallSettings.scenario(named: arguments[Self.scenario] ?? "heavy-jitter")
        settings.dtmf = "1234#"
        settings.jitterBuffer = try JitterBufferChoice.configuration(arguments[CallCommand.jitterBuffer] ?? "ours")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("\(directory.path): \(error.localizedDescription)")
        }
        let capture = directory.appendingPathComponent("demo-wire.pcap").path
        settings.capturePath = capture
        let outcome = try RelayedCall(settings: settings).run(printingTo: console)
        let sent = directory.appendingPathComponent("demo-sent.wav").path
        let received = directory.appendingPathComponent("demo-received.wav").path
        try CallCommand.write(outcome.sent, in: settings.audioFormat, to: sent)
        try CallCommand.write(outcome.received, in: settings.audioFormat, to: received)
        let report = directory.appendingPathComponent("report.html").path
        try Self.writeQualityReport(of: capture, keys: outcome.wireKeys, to: report, console: console)
        console.write("wrote \(sent), \(received), \(capture) and \(report)\n")
        return 0
    }

    /// Analyses the wire capture offline (decrypting it with the call's keys) and writes the
    /// analyzer's HTML report; prints one line per stream found.
    private static func writeQualityReport(of capture: String, keys: [SRTPKeyAssignment], to path: String, console: Console) throws {
        var configuration = CaptureAnalyzer.Configuration()
        configuration.srtpKeys = keys
        let file = CaptureAnalyzer.analyzeFile(atPath: capture, configuration: configuration)
        if let error = file.error { throw CommandFailure("\(capture): \(error)") }
        let tool = ToolInfo(name: "mediabench demo", version: Mediabench.version, options: [:])
        try DataOutput.write(AnalysisReport(tool: tool, files: [file]).html(), toFile: path, console: console)
        for stream in file.streams {
            let decrypted = stream.srtp.map { ", \($0.decrypted) decrypted with the call's \($0.suite) key" } ?? ""
            console.write("analyzed SSRC \(String(format: "0x%08X", stream.key.ssrc)): \(stream.packets) packets\(decrypted)\n")
        }
    }
}
