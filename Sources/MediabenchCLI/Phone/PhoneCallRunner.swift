import Foundation
import MediaSession
import SIP

/// Follows one call to its end: prints each state and a quality line a second, sends the
/// DTMF digits once connected, holds and resumes at the asked times, hangs up after the
/// duration, and never lets the call outlive `--duration` + 8 s.
struct PhoneCallRunner {
    let settings: PhoneSettings
    let console: Console

    /// Seconds a dialled call may stay without any response before it counts as unreachable.
    static let noResponseSeconds = 5.0

    func run(_ call: Call, audio: PhoneAudioEndpoint) async -> PhoneOutcome {
        let started = ContinuousClock.now
        // Digits go once we have said what IN.wav says (at least 1 s in), not over our own speech.
        let spoken = settings.input.map { Double($0.samples.count) / Double($0.format.sampleRate * $0.format.channels) } ?? 0
        let dtmfAtSeconds = max(1, spoken + 0.5)
        let printer = Task { [console, json = settings.json] in
            for await state in call.states where !json { console.write("state: \(state)\n") }
        }
        let quality = Task { [console, json = settings.json] () -> [Double] in
            var scores: [Double] = []
            for await report in call.qualityReports {
                if let mos = report.quality.meanOpinionScore { scores.append(mos) }
                if !json { console.write("quality: \(report.quality.description)\n") }
            }
            return scores
        }
        let digits = Task { () -> String in
            var text = ""
            for await event in call.mediaEvents {
                if case .dtmfReceived(let digit) = event { text.append(digit) }
            }
            return text
        }
        var connectedAt: ContinuousClock.Instant?
        var sentDigits = false
        var held = false
        var resumed = false
        while !call.state.isEnded {
            try? await Task.sleep(for: .milliseconds(50))
            let now = ContinuousClock.now
            if now - started > .seconds(settings.durationSeconds + 8) {
                call.hangUp()
                break
            }
            if call.state == .calling, call.direction == .outgoing, now - started > .seconds(Self.noResponseSeconds) {
                console.writeError("mediabench phone: no response from the peer in \(Int(Self.noResponseSeconds)) s\n")
                call.hangUp()
                break
            }
            if connectedAt == nil, call.state == .connected {
                connectedAt = now
                if settings.mux == .require, call.negotiatedAudio?.rtcpMux == false {
                    console.writeError("mediabench phone: the peer declined rtcp-mux, which --rtcp-mux require demands\n")
                    call.hangUp()
                    break
                }
            }
            guard let connectedAt else { continue }
            let elapsed = (now - connectedAt).seconds
            if !sentDigits, !settings.dtmf.isEmpty, elapsed >= dtmfAtSeconds {
                sentDigits = true
                do { try call.sendDTMF(settings.dtmf) } catch { console.writeError("mediabench phone: DTMF: \(error)\n") }
            }
            if let holdAt = settings.holdAtSeconds, !held, elapsed >= holdAt {
                held = true
                call.hold()
            }
            if let resumeAt = settings.resumeAtSeconds, held, !resumed, elapsed >= resumeAt, call.state == .held {
                resumed = true
                call.resume()
            }
            if elapsed >= settings.durationSeconds {
                call.hangUp()
                break
            }
        }
        // The INVITE's own timer (RFC 3261 Timer B) can end the call before this loop looked,
        // when the loop's wake-ups were late: the peer never answered either way.
        if connectedAt == nil, call.direction == .outgoing, call.state == .ended(.timeout) {
            console.writeError("mediabench phone: no response from the peer (the INVITE timed out)\n")
        }
        // The BYE or CANCEL is on its way; the session stops with the call.
        var outcome = PhoneOutcome()
        _ = await printer.value
        outcome.meanOpinionScores = await quality.value
        outcome.dtmfReceived = await digits.value
        outcome.states = call.stateHistory
        outcome.remoteUserAgent = call.remoteUserAgent
        outcome.negotiated = call.negotiatedAudio
        outcome.statistics = call.session?.statistics ?? MediaSessionStatistics()
        return outcome
    }
}
