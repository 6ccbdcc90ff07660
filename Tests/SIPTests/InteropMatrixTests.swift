import Foundation
import Testing

/// Calls with real softphones (baresip, Linphone) on 127.0.0.1: the default run makes the
/// six calls of ``InteropCase/subset``; `INTEROP_MATRIX=full` (scripts/interop.sh) makes all 48.
/// Each call: espeak-ng speech both ways scored with PESQ, DTMF both ways, a hold and a resume,
/// RTCP both ways.
@Suite(.serialized) struct InteropMatrixTests {
    static var cases: [InteropCase] {
        ProcessInfo.processInfo.environment["INTEROP_MATRIX"] == "full" ? InteropCase.fullMatrix : InteropCase.subset
    }

    @Test func callsWithRealSoftphones() async throws {
        let directory = NSTemporaryDirectory() + "interop-speech-\(ProcessInfo.processInfo.processIdentifier)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let speech = try InteropSpeech(directory: directory)
        var rows: [String] = [InteropResult.header, "|" + String(repeating: "---|", count: 15)]
        for testCase in Self.cases {
            let result = try await InteropRun.run(testCase, speech: speech)
            rows.append(result.row)
            print("INTEROP " + result.row)
            if let reason = testCase.peerCannotOffer {
                #expect(!result.connected && result.note.contains("488"), "\(testCase): \(reason); got \(result.note)")
                continue
            }
            #expect(result.connected, "\(testCase): \(result.note)")
            #expect(result.dtmfToPeer == InteropRun.engineDigits, "\(testCase): DTMF to the peer")
            #expect(result.dtmfFromPeer == InteropRun.peerDigits, "\(testCase): DTMF from the peer")
            #expect(result.holdSeenByPeer && result.resumeSeenByPeer, "\(testCase): hold/resume")
            #expect((result.pesqEngineHeard ?? 0) >= 3.5, "\(testCase): PESQ of what the engine heard")
            #expect((result.pesqPeerHeard ?? 0) >= 3.5, "\(testCase): PESQ of what the peer heard")
            #expect(result.rtcpFromPeer > 0 && result.engineRoundTripMilliseconds != nil, "\(testCase): RTCP both ways")
        }
        print(rows.map { "INTEROP " + $0 }.joined(separator: "\n"))
    }
}
