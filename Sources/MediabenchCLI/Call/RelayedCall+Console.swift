extension RelayedCall {
    /// Runs the call, printing a heading, the callee's quality line each second and the
    /// summary to `console`; fails when DTMF digits were sent but not received exactly once each.
    func run(printingTo console: Console) throws -> CallOutcome {
        let security = settings.srtp.map { "\($0.sdesName) SRTP" } ?? "plain RTP"
        console.write(
            """
            call: \(settings.codec), \(security), network '\(settings.scenario.rawValue)' (seed \(settings.seed)), \
            \(Self.seconds(settings.durationSeconds)) s

            """)
        let outcome = try run { report in console.write(report.quality.description + "\n") }
        console.write(outcome.summary)
        guard outcome.dtmfReceived == settings.dtmf else {
            throw CommandFailure("DTMF: sent '\(settings.dtmf)', the callee received '\(outcome.dtmfReceived)'")
        }
        return outcome
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
