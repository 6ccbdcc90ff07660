import Foundation
import Testing

/// `mediabench emodel` against the reference values of the E-model tests (G.107 (06/2015),
/// computed independently by Tests/QualityMetricsTests/Scripts/emodel_reference.py).
@Suite struct EModelCommandTests {
    private func json(_ arguments: [String]) throws -> [String: Any] {
        let run = Invocation(["emodel", "--format", "json"] + arguments)
        #expect(run.status == 0, "\(run.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))
        return try #require(object as? [String: Any])
    }

    @Test func defaultsGiveR93point2() throws {
        let result = try json([])
        let r = try #require(result["r_factor"] as? Double)
        #expect(abs(r - 93.2062) < 0.01)
        let terms = try #require(result["terms"] as? [String: Double])
        #expect(abs((terms["ro"] ?? 0) - 94.7688) < 0.01)
        #expect(abs((terms["is"] ?? 0) - 1.4136) < 0.01)
    }

    @Test func codecAndLossFlagsReachTheModel() throws {
        // G.711 with Appendix I PLC (Bpl 25.1) at 2 % random loss: R = 86.1951.
        let withConcealment = try json(["--codec", "pcmu", "--ppl", "2"])
        #expect(abs((withConcealment["r_factor"] as? Double ?? 0) - 86.1951) < 0.01)
        // Without concealment (Bpl 4.3) at 1 %: R = 75.2817.
        let without = try json(["--codec", "pcma", "--no-plc", "--ppl", "1"])
        #expect(abs((without["r_factor"] as? Double ?? 0) - 75.2817) < 0.01)
        // Ta = 300 ms adds Idd = 14.7607 to the defaults' Id.
        let delayed = try json(["--ta", "300"])
        let terms = try #require(delayed["terms"] as? [String: Double])
        #expect(abs((terms["idd"] ?? 0) - 14.7607) < 0.01)
    }

    @Test func textReportListsEveryTerm() {
        let run = Invocation(["emodel", "--ta", "150"])
        #expect(run.status == 0)
        for symbol in ["Ro", "Is", "Id", "Idd", "Ie,eff", "R ", "MOS-CQE"] {
            #expect(run.standardOutput.contains(symbol), "missing \(symbol)")
        }
    }

    @Test func badInputsNameTheProblem() {
        let unknown = Invocation(["emodel", "--codec", "speex"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.hasPrefix("mediabench emodel: --codec: unknown codec 'speex'"))
        let undefined = Invocation(["emodel", "--burstr", "0"])
        #expect(undefined.status == 1)
        #expect(undefined.standardError.contains("BurstR"))
        let untraced = Invocation(["emodel", "--codec", "opus"])
        #expect(untraced.status == 1)
        #expect(untraced.standardError.contains("no ITU-T value of Ie"))
    }
}
