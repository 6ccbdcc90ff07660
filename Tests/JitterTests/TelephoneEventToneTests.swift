import Codecs
import Foundation
import RTP
import Testing

@testable import Jitter

/// RFC 4733 senders send a digit's events in place of its audio: the buffer plays the digit's
/// tone there (as WebRTC's NetEq does) instead of concealing 100 ms or more as if it were lost.
@Suite struct TelephoneEventToneTests {
    /// ITU-T Q.23's keypad: the row and column frequency of each RFC 4733 event 0–15.
    static let keypad: [UInt8: (Double, Double)] = [
        1: (697, 1209), 2: (697, 1336), 3: (697, 1477), 12: (697, 1633),
        4: (770, 1209), 5: (770, 1336), 6: (770, 1477), 13: (770, 1633),
        7: (852, 1209), 8: (852, 1336), 9: (852, 1477), 14: (852, 1633),
        10: (941, 1209), 0: (941, 1336), 11: (941, 1477), 15: (941, 1633),
    ]
    static let keypadFrequencies = [697.0, 770, 852, 941, 1209, 1336, 1477, 1633]

    /// The power of `samples` at `frequency` (Goertzel), normalised by the length.
    static func power(of samples: ArraySlice<Int16>, at frequency: Double, sampleRate: Double = 8000) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * frequency / sampleRate)
        var previous = 0.0
        var beforePrevious = 0.0
        for sample in samples {
            let value = Double(sample) + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = value
        }
        let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        return power / Double(samples.count * samples.count)
    }

    /// The event whose two frequencies dominate `samples` by 10 dB over the other six, if any.
    static func dominantEvent(in samples: ArraySlice<Int16>) -> UInt8? {
        let powers = Dictionary(uniqueKeysWithValues: keypadFrequencies.map { ($0, power(of: samples, at: $0)) })
        for (event, pair) in keypad {
            let strongestOther = powers.filter { $0.key != pair.0 && $0.key != pair.1 }.values.max() ?? 0
            if min(powers[pair.0]!, powers[pair.1]!) > 10 * strongestOther { return event }
        }
        return nil
    }

    @Test func everyEventRendersItsQ23FrequencyPairAtItsLevel() {
        for (event, _) in Self.keypad {
            var generator = DTMFToneGenerator()
            var pcm = [Int16](repeating: 0, count: 800)
            pcm.withUnsafeMutableBufferPointer {
                generator.render(event: event, volume: 10, sampleRate: 8000, channels: 1, frames: 800, into: $0)
            }
            #expect(Self.dominantEvent(in: pcm[...]) == event, "event \(event)")
            // −10 dBm0 in all, from G.711's definition: its full-scale sine (peak 32 636 in
            // 16-bit samples) is +3.17 dBm0; two equal sines of peak P have an RMS of P.
            let rms = sqrt(pcm.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(pcm.count))
            let expected = 32_636 * pow(10, (-10 - 3.17) / 20) / 2.0.squareRoot()
            #expect(abs(20 * log10(rms / expected)) < 0.3, "RMS \(rms), expected \(expected)")
        }
        var generator = DTMFToneGenerator()
        var pcm = [Int16](repeating: 7, count: 160)
        pcm.withUnsafeMutableBufferPointer {
            generator.render(event: 32, volume: 10, sampleRate: 8000, channels: 1, frames: 160, into: $0)
        }
        #expect(pcm.allSatisfy { $0 == 0 }, "an event that is no tone plays silence")
    }

    /// 2 s of PCMU at 20 ms, arriving 40 ms after sending; packets 40–47 are digit 5's events
    /// (100 ms, updates every 20 ms, the end sent three times) in place of audio.
    static func playCall(telephoneEvents: [TelephoneEventFormat]) throws -> (statistics: JitterBufferStatistics, output: [Int16]) {
        var configuration = JitterBufferConfiguration()
        configuration.telephoneEvents = telephoneEvents
        var buffer = JitterBuffer(decoder: G711Decoder(law: .muLaw), configuration: configuration)
        var encoder = try G711Encoder(law: .muLaw)
        let pcm = (0..<160).map { Int16(3000 * sin(2 * Double.pi * 300 * Double($0) / 8000)) }
        var audio = [UInt8](repeating: 0, count: 160)
        _ = try pcm.withUnsafeBufferPointer { samples in try audio.withUnsafeMutableBytes { try encoder.encode(samples, into: $0) } }
        var output: [Int16] = []
        var played = [Int16](repeating: 0, count: buffer.samplesPerPull)
        var next = 0
        for pull in 0..<200 {  // ends before the stream does: no concealment of its end
            let now = Double(pull) * 10
            while next < 100, Double(next) * 20 + 40 <= now {
                var payload = audio
                var payloadType: UInt8 = 0
                var timestamp = UInt32(next * 160)
                if (40..<48).contains(next) {
                    let updates = min(next - 39, 5)
                    let event = DTMFEventPayload(event: 5, isEnd: next >= 44, volume: 10, duration: UInt16(updates * 160))
                    payload = [UInt8](repeating: 0, count: DTMFEventPayload.byteCount)
                    _ = try payload.withUnsafeMutableBytes { try event.write(into: $0) }
                    payloadType = 101
                    timestamp = 40 * 160
                }
                _ = payload.withUnsafeBytes { bytes in
                    buffer.insert(
                        IncomingPacket(
                            sequenceNumber: UInt16(next), timestamp: timestamp, marker: next == 0 || next == 40,
                            payloadType: payloadType, ssrc: 9, payload: bytes),
                        arrivalMilliseconds: Double(next) * 20 + 40)
                }
                next += 1
            }
            _ = played.withUnsafeMutableBufferPointer { buffer.pull(into: $0, nowMilliseconds: now) }
            output += played
        }
        return (buffer.statistics, output)
    }

    @Test func eventsInPlaceOfAudioPlayAsTheDigitsToneNotAsConcealment() throws {
        let (statistics, output) = try Self.playCall(telephoneEvents: [TelephoneEventFormat(payloadType: 101, clockRate: 8000)])
        #expect(statistics.toneSamples == 800, "the digit's 100 ms")
        #expect(statistics.concealedSamples == 0 && statistics.interruptions == 0, "\(statistics)")
        #expect(statistics.latePackets == 0 && statistics.packetsDiscarded == 0, "\(statistics)")
        let windows = stride(from: 0, to: output.count - 160, by: 160).map { output[$0..<($0 + 160)] }
        let toneWindows = windows.filter { Self.dominantEvent(in: $0) == 5 }.count
        #expect((4...5).contains(toneWindows), "\(toneWindows) windows of 20 ms heard as digit 5")
        #expect(windows.allSatisfy { [nil, 5].contains(Self.dominantEvent(in: $0)) }, "no other digit heard")

        // Without the format, the same call conceals the digit's media time as loss.
        let (unaware, heard) = try Self.playCall(telephoneEvents: [])
        #expect(unaware.toneSamples == 0 && unaware.concealedSamples >= 800, "\(unaware)")
        #expect(stride(from: 0, to: heard.count - 160, by: 160).allSatisfy { Self.dominantEvent(in: heard[$0..<($0 + 160)]) == nil })
    }
}
