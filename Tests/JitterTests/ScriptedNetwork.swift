import Jitter
import PlayoutLab

/// One packet of a scripted arrival sequence.
struct ScriptedPacket {
    var sequenceNumber: UInt16
    var timestamp: UInt32
    var arrivalMilliseconds: Double
    var marker = false
    var ssrc: UInt32 = 0x1234
    var payloadType: UInt8 = 0
    /// The payload's own identity (unwrapped), for the synthetic decoder's log.
    var identity: UInt64
}

/// Builds arrival scripts: a 20 ms, 8 kHz stream sent from `start`, with per-packet tweaks.
struct Script {
    var packets: [ScriptedPacket] = []

    /// `count` packets sent every 20 ms from `firstSend`, each arriving `delay(index)` later
    /// (`nil`: lost).
    static func stream(
        count: Int, firstSequence: UInt16 = 1000, firstTimestamp: UInt32 = 50_000, firstSend: Double = 0,
        delay: (Int) -> Double? = { _ in 40 }
    ) -> Script {
        var script = Script()
        for index in 0..<count {
            guard let delay = delay(index) else { continue }
            script.packets.append(
                ScriptedPacket(
                    sequenceNumber: firstSequence &+ UInt16(truncatingIfNeeded: index),
                    timestamp: firstTimestamp &+ UInt32(truncatingIfNeeded: index * 160),
                    arrivalMilliseconds: firstSend + Double(index) * 20 + delay,
                    marker: index == 0,
                    identity: UInt64(index)
                )
            )
        }
        return script
    }
}

/// The outcome of replaying a script with a 10 ms pull clock.
struct Replay {
    var decisions: [PlayoutDecision] = []
    var outcomes: [InsertOutcome] = []
    var events: [SyntheticVoiceDecoder.Event] = []
    var statistics = JitterBufferStatistics()
    /// The buffer's current and target delay after each pull.
    var delays: [(current: Double, target: Double)] = []
    var output: [Int16] = []

    var decodedIdentities: [UInt64] {
        events.compactMap { if case let .decoded(identity) = $0 { identity } else { nil } }
    }

    func count(_ kind: PlayoutDecision.Kind) -> Int { decisions.filter { $0.kind == kind }.count }

    /// Runs of concealing pulls before the last pull that played media: the concealment of the
    /// stream's end, when the replay runs past it, is left out.
    var concealmentRunsBeforeTheEnd: Int {
        let end = decisions.lastIndex { $0.kind != .conceal && $0.kind != .comfortNoise } ?? 0
        return decisions[..<end].indices.filter { index in
            decisions[index].kind == .conceal && (index == 0 || decisions[index - 1].kind != .conceal)
        }.count
    }
}

/// Replays `script` into a fresh buffer: before each pull at `pullMilliseconds(k)`, every
/// packet that has arrived by then is inserted.
func replay(
    _ script: Script, pulls: Int, configuration: JitterBufferConfiguration = JitterBufferConfiguration(),
    decoder: SyntheticVoiceDecoder = SyntheticVoiceDecoder(pauses: .readSpeech), pullMilliseconds: (Int) -> Double = { Double($0) * 10 }
) -> Replay {
    var buffer = JitterBuffer(decoder: decoder, configuration: configuration)
    let ordered = script.packets.enumerated().sorted { ($0.element.arrivalMilliseconds, $0.offset) < ($1.element.arrivalMilliseconds, $1.offset) }
        .map(\.element)
    var next = 0
    var result = Replay()
    var payload = [UInt8](repeating: 0, count: SyntheticVoiceDecoder.payloadBytes)
    var pcm = [Int16](repeating: 0, count: buffer.samplesPerPull)
    for pull in 0..<pulls {
        let now = pullMilliseconds(pull)
        while next < ordered.count, ordered[next].arrivalMilliseconds <= now {
            let packet = ordered[next]
            payload.withUnsafeMutableBytes {
                SyntheticVoiceDecoder.writePayload(sequenceNumber: packet.identity, timestamp: UInt64(packet.timestamp), into: $0)
            }
            let outcome = payload.withUnsafeBytes { bytes in
                buffer.insert(
                    IncomingPacket(
                        sequenceNumber: packet.sequenceNumber, timestamp: packet.timestamp, marker: packet.marker,
                        payloadType: packet.payloadType, ssrc: packet.ssrc, payload: bytes
                    ),
                    arrivalMilliseconds: packet.arrivalMilliseconds
                )
            }
            result.outcomes.append(outcome)
            next += 1
        }
        let decision = pcm.withUnsafeMutableBufferPointer { buffer.pull(into: $0, nowMilliseconds: now) }
        result.decisions.append(decision)
        result.output += pcm
        let statistics = buffer.statistics
        result.delays.append((statistics.currentDelayMilliseconds, statistics.targetDelayMilliseconds))
    }
    result.events = buffer.decoder.events
    result.statistics = buffer.statistics
    return result
}
