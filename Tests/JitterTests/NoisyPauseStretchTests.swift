import Codecs
import Testing
import TestSupport

@testable import Jitter

/// The buffer moves its delay in the pauses of real speech over background noise: espeak-ng
/// speech mixed with sox noise (`NoisySpeech`), after a second of the noise alone, sent as PCMU
/// on a steady network whose transit falls by 60 ms after 5 s. The pieces removed lie where the clean speech has no
/// clear speech (the known answer: its blocks within 15 dB of its active level), all but one in
/// ten at most, and the excess is gone by the end.
@Suite struct NoisyPauseStretchTests {
    static let cases: [(NoisySpeech.Talker, NoisySpeech.Noise, Double)] = [
        (NoisySpeech.Talker(voice: "en-gb", wordsPerMinute: 175), .pink, 10),
        (NoisySpeech.Talker(voice: "en-us", wordsPerMinute: 120), .babble, 20),
        (NoisySpeech.Talker(voice: "en-us+f3", wordsPerMinute: 175), .car, 10),
    ]

    @Test(arguments: cases)
    func delayShrinksInThePausesOfNoisySpeech(talker: NoisySpeech.Talker, noise: NoisySpeech.Noise, snr: Double) throws {
        // The line is open for a second before the first words, as after a call is answered:
        // the pause decision's floor needs the background alone once (a talker who speaks
        // from the first packet for more than 2 s without a gap lifts it to the speech).
        let clean = [Int16](repeating: 0, count: NoisySpeech.sampleRate) + (try NoisySpeech.speech(talker))
        let activity = NoisySpeech.activity(ofClean: clean)
        let noisy = NoisySpeech.mix(clean, try NoisySpeech.noise(noise, count: clean.count), snrDecibels: snr)
        var encoder = try G711Encoder(law: .muLaw)
        let payloads = try stride(from: 0, to: noisy.count - 160, by: 160).map { start in
            var payload = [UInt8](repeating: 0, count: 160)
            _ = try noisy[start..<start + 160].withUnsafeBufferPointer { pcm in
                try payload.withUnsafeMutableBytes { try encoder.encode(pcm, into: $0) }
            }
            return payload
        }
        // The path's transit falls from 100 to 40 ms after 5 s: 60 ms of delay to shed.
        func arrival(_ packet: Int) -> Double { Double(packet) * 20 + (packet < 250 ? 100 : 40) }
        // A path whose delay is dear (150 ms outside the buffer): all of the excess goes, not
        // only what lies beyond the delay a conversation gets for free (`FreeDelayTests`).
        var configuration = JitterBufferConfiguration()
        configuration.conversationalBaseDelayMilliseconds = 150
        var buffer = JitterBuffer(decoder: G711Decoder(law: .muLaw), configuration: configuration)
        var acceleratedBlocks: [Int] = []
        SteadyPCMUStream.play(payloads, through: &buffer, pulls: payloads.count * 2 + 20, arrival: arrival) { _, decision, inserted, buffer in
            // A cut in a pause (not a pitch period of voiced speech, which the buffer removes
            // only when no pause has come for 3 s).
            if decision.kind == .accelerate, buffer.quietRunSamples > 0, inserted < payloads.count {
                acceleratedBlocks.append(Int(decision.rtpTimestamp) / 80)
            }
        }
        #expect(!acceleratedBlocks.isEmpty, "\(talker) over \(noise) at \(snr) dB: the excess delay is removed in pauses")
        // A piece is cut from the audio at the head of the pull, at most 60 ms of it.
        let inSpeech = acceleratedBlocks.filter { block in
            (block..<min(block + 6, activity.speech.count)).contains { activity.speech[$0] }
        }
        // The pause decision calls about 1 % of clear speech a pause (NoiseFloorVADTests): a
        // cut may land there, rarely.
        #expect(
            inSpeech.count * 10 <= acceleratedBlocks.count,
            "\(talker) over \(noise) at \(snr) dB: cut in clear speech at 10 ms blocks \(inSpeech) of \(acceleratedBlocks)"
        )
        let statistics = buffer.statistics
        #expect(
            statistics.currentDelayMilliseconds - statistics.targetDelayMilliseconds < 20,
            "\(talker) over \(noise) at \(snr) dB: delay \(statistics.currentDelayMilliseconds) ms, target \(statistics.targetDelayMilliseconds) ms"
        )
    }
}
