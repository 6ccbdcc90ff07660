import Codecs
import Jitter
import PlayoutLab

/// Drives a jitter buffer with a real codec for the pull-cost benchmark: a jittery 20 ms
/// stream of pre-encoded voice (so decoding, concealment, merging and time-stretching all run),
/// one 10 ms pull per operation, packets inserted as the pull clock reaches their arrival.
final class PullBench<Decoder: AudioDecoder> {
    private var buffer: JitterBuffer<Decoder>
    private let payloads: [[UInt8]]
    private let samplesPerFrame: Int
    private var output: [Int16]
    private var pull = 0
    private var nextPacket = 0

    /// A bench over `payloads` (one 20 ms frame each, cycled), with frames of `samplesPerFrame`
    /// RTP timestamp units.
    init(decoder: Decoder, payloads: [[UInt8]], samplesPerFrame: Int) {
        buffer = JitterBuffer(decoder: decoder)
        self.payloads = payloads
        self.samplesPerFrame = samplesPerFrame
        output = [Int16](repeating: 0, count: buffer.samplesPerPull * buffer.format.channels)
    }

    /// Runs `pulls` pulls and returns the last decision.
    func run(pulls: Int) -> PlayoutDecision? {
        var last: PlayoutDecision?
        for _ in 0..<pulls {
            let now = Double(pull) * 10
            // Packet n is sent at 20n ms and arrives 0–45 ms later; every 50th is lost.
            while Double(nextPacket) * 20 + Double(nextPacket * 37 % 46) <= now {
                let index = nextPacket
                nextPacket += 1
                guard index % 50 != 7 else { continue }
                let payload = payloads[index % payloads.count]
                payload.withUnsafeBytes { bytes in
                    _ = buffer.insert(
                        IncomingPacket(
                            sequenceNumber: UInt16(truncatingIfNeeded: index),
                            timestamp: UInt32(truncatingIfNeeded: index * samplesPerFrame), payloadType: 0, ssrc: 1,
                            payload: bytes
                        ),
                        arrivalMilliseconds: Double(index) * 20 + Double(index * 37 % 46)
                    )
                }
            }
            last = output.withUnsafeMutableBufferPointer { buffer.pull(into: $0, nowMilliseconds: now) }
            pull += 1
        }
        return last
    }

    /// One second of a voiced test signal (125 Hz with harmonics) at `sampleRate`, in 20 ms frames.
    static func voiceFrames(sampleRate: Int) -> [[Int16]] {
        let frame = sampleRate / 50
        return (0..<50).map { index in
            (0..<frame).map { sample in
                let time = Double(index * frame + sample) / Double(sampleRate)
                let phase = (time * 125).truncatingRemainder(dividingBy: 1)
                let pulse = phase < 0.5 ? 4 * phase - 1 : 3 - 4 * phase
                let envelope = 0.5 + 0.5 * (time * 3).truncatingRemainder(dividingBy: 1)
                return Int16(6000 * pulse * envelope)
            }
        }
    }
}
