import Jitter
import Codecs

/// A stand-in codec for simulations: its payload names the packet (sequence number and
/// timestamp), and it decodes to a voiced, pitch-periodic waveform that is continuous across
/// packets (so time-stretching finds its pitch as it would in speech). It logs every call, so a
/// harness can tell exactly which packets were played and how much was concealed.
///
/// With a ``Pauses`` pattern the voice also pauses (digital silence) the way read speech does
/// between sentences, so a buffer that moves its delay in pauses behaves as it would on speech.
public struct SyntheticVoiceDecoder: AudioDecoder, Sendable {
    /// When the voice is silent, by RTP timestamp: in every cycle of ``cycleMilliseconds``, the
    /// last ``pauseMilliseconds`` are a pause.
    public struct Pauses: Sendable, Equatable {
        /// The length of one utterance and the pause after it, in milliseconds.
        public var cycleMilliseconds: Int
        /// The length of the pause at the end of each cycle, in milliseconds.
        public var pauseMilliseconds: Int

        /// A pattern of `pauseMilliseconds` of silence at the end of every `cycleMilliseconds`.
        public init(cycleMilliseconds: Int, pauseMilliseconds: Int) {
            self.cycleMilliseconds = max(cycleMilliseconds, 1)
            self.pauseMilliseconds = min(max(pauseMilliseconds, 0), self.cycleMilliseconds)
        }

        /// Read speech: utterances of 2.3 s, each followed by a pause of 0.45 s (the sentence
        /// rhythm of the espeak-ng speech the listening tests use).
        public static let readSpeech = Pauses(cycleMilliseconds: 2750, pauseMilliseconds: 450)
    }

    /// One call the buffer made.
    public enum Event: Sendable, Equatable {
        /// The packet with this (unwrapped) sequence number was decoded.
        case decoded(sequenceNumber: UInt64)
        /// The packet with this sequence number was recovered from the next packet's FEC.
        case recovered(sequenceNumber: UInt64)
        /// This many samples per channel were concealed.
        case concealed(samples: Int)
    }

    /// The PCM produced: mono at the RTP clock rate.
    public let format: AudioFormat
    /// The RTP clock rate.
    public let rtpClockRate: Int
    /// Samples per channel in one packet.
    public let samplesPerFrame: Int
    /// Whether ``decodeFEC(from:samplesPerChannel:into:)`` recovers the previous packet.
    public let supportsForwardErrorCorrection: Bool
    /// When the voice pauses; `nil` for a voice that never pauses.
    public let pauses: Pauses?
    /// The calls made since the log was last cleared.
    public internal(set) var events: [Event] = []
    private var nextSample: UInt64 = 0

    /// The bytes a payload needs: the sequence number and the timestamp, 8 bytes each.
    public static let payloadBytes = 16

    /// A decoder of `clockRate` Hz mono audio in frames of `samplesPerFrame`, pausing as
    /// `pauses` says.
    public init(
        clockRate: Int = 8000, samplesPerFrame: Int = 160, supportsForwardErrorCorrection: Bool = false, pauses: Pauses? = nil
    ) {
        format = AudioFormat(sampleRate: clockRate, channels: 1)
        rtpClockRate = clockRate
        self.samplesPerFrame = samplesPerFrame
        self.supportsForwardErrorCorrection = supportsForwardErrorCorrection
        self.pauses = pauses
        events.reserveCapacity(1024)
    }

    /// Writes the payload naming a packet into `payload` (at least ``payloadBytes`` long).
    public static func writePayload(sequenceNumber: UInt64, timestamp: UInt64, into payload: UnsafeMutableRawBufferPointer) {
        guard payload.count >= payloadBytes else { return }
        payload.storeBytes(of: sequenceNumber.littleEndian, toByteOffset: 0, as: UInt64.self)
        payload.storeBytes(of: timestamp.littleEndian, toByteOffset: 8, as: UInt64.self)
    }

    /// Forgets the logged calls.
    public mutating func clearEvents() { events.removeAll(keepingCapacity: true) }

    /// Decodes one frame of the voice at the payload's timestamp.
    public mutating func decode(
        _ payload: UnsafeRawBufferPointer, into pcm: UnsafeMutableBufferPointer<Int16>
    ) throws(CodecError) -> Int {
        guard payload.count >= Self.payloadBytes else {
            throw .invalidPayload("\(payload.count) bytes, a synthetic payload has \(Self.payloadBytes)")
        }
        let sequence = UInt64(littleEndian: payload.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
        let timestamp = UInt64(littleEndian: payload.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        events.append(.decoded(sequenceNumber: sequence))
        return render(from: timestamp, samples: samplesPerFrame, gain: 1, into: pcm)
    }

    /// Continues the voice, like a codec's concealment.
    public mutating func decode(lost samplesPerChannel: Int, into pcm: UnsafeMutableBufferPointer<Int16>) throws(CodecError) -> Int {
        events.append(.concealed(samples: samplesPerChannel))
        return render(from: nextSample, samples: samplesPerChannel, gain: 0.7, into: pcm)
    }

    /// Recovers the frame before the payload's packet.
    public mutating func decodeFEC(
        from nextPayload: UnsafeRawBufferPointer, samplesPerChannel: Int, into pcm: UnsafeMutableBufferPointer<Int16>
    ) throws(CodecError) -> Int {
        guard supportsForwardErrorCorrection, nextPayload.count >= Self.payloadBytes else {
            return try decode(lost: samplesPerChannel, into: pcm)
        }
        let sequence = UInt64(littleEndian: nextPayload.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
        let timestamp = UInt64(littleEndian: nextPayload.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        events.append(.recovered(sequenceNumber: sequence &- 1))
        return render(from: timestamp &- UInt64(samplesPerChannel), samples: samplesPerChannel, gain: 1, into: pcm)
    }

    /// A 125 Hz voice (8 ms pitch period) with three harmonics, continuous in `sample`, silent
    /// in the pauses.
    private mutating func render(from sample: UInt64, samples: Int, gain: Double, into pcm: UnsafeMutableBufferPointer<Int16>) -> Int {
        let count = min(samples, pcm.count)
        let period = UInt64(max(rtpClockRate / 125, 1))
        let samplesPerMillisecond = UInt64(max(rtpClockRate / 1000, 1))
        for index in 0..<count {
            let position = sample &+ UInt64(index)
            if let pauses, isPaused(position, samplesPerMillisecond: samplesPerMillisecond, pauses: pauses) {
                pcm[index] = 0
                continue
            }
            let phase = Double(position % period) / Double(period)
            let value = 6000 * Self.sine(phase) + 3000 * Self.sine(2 * phase) + 1500 * Self.sine(3 * phase)
            pcm[index] = Int16(value * gain)
        }
        nextSample = sample &+ UInt64(count)
        return count
    }

    /// Whether the voice is in a pause at timestamp `position`.
    private func isPaused(_ position: UInt64, samplesPerMillisecond: UInt64, pauses: Pauses) -> Bool {
        let cycle = UInt64(pauses.cycleMilliseconds) &* samplesPerMillisecond
        let voiced = UInt64(pauses.cycleMilliseconds - pauses.pauseMilliseconds) &* samplesPerMillisecond
        return position % cycle >= voiced
    }

    /// sin(2πx) by a short polynomial: enough for a test signal, and free of libm.
    private static func sine(_ turns: Double) -> Double {
        var x = turns - turns.rounded(.down)  // 0..<1
        x = x < 0.5 ? x : x - 1  // −0.5..<0.5
        let y = 2 * Double.pi * x
        let y2 = y * y
        return y * (1 - y2 / 6 * (1 - y2 / 20 * (1 - y2 / 42 * (1 - y2 / 72))))
    }
}
