import Codecs

/// A ``JitterBuffer`` that decodes through a ``TaggedPayloadDecoder``: the buffer of PlayoutLab's
/// replay of recorded arrivals, with methods that are not generic.
///
/// A generic buffer called from another module runs unspecialised: its stored properties are
/// reached through offsets read at run time and its decoder through witness tables. Made here,
/// in the buffer's own module, for the one decoder the replay uses, the buffer's code is
/// compiled for that decoder (the replay's profile shows the specialised functions).
package struct TaggedJitterBuffer: ~Copyable {
    private var buffer: JitterBuffer<TaggedPayloadDecoder>

    /// A buffer that decodes with `decoder`.
    package init(decoder: TaggedPayloadDecoder, configuration: JitterBufferConfiguration) {
        buffer = JitterBuffer(decoder: decoder, configuration: configuration)
    }

    /// See ``JitterBuffer/timestampJumpMilliseconds``.
    package static var timestampJumpMilliseconds: Double { JitterBuffer<TaggedPayloadDecoder>.timestampJumpMilliseconds }

    /// See ``JitterBuffer/samplesPerPull``.
    package var samplesPerPull: Int { buffer.samplesPerPull }

    /// See ``JitterBuffer/insert(_:arrivalMilliseconds:)-(IncomingPacket,_)``.
    package mutating func insert(_ packet: IncomingPacket, arrivalMilliseconds: Double) {
        buffer.insert(packet, arrivalMilliseconds: arrivalMilliseconds)
    }

    /// See ``JitterBuffer/pull(into:nowMilliseconds:)``.
    package mutating func pull(into output: UnsafeMutableBufferPointer<Int16>, nowMilliseconds: Double) -> PlayoutDecision {
        buffer.pull(into: output, nowMilliseconds: nowMilliseconds)
    }

    /// See ``JitterBufferStatistics/toneSamples``: telephone-event tones played so far, in
    /// samples per channel.
    package var toneSamples: Int { buffer.statistics.toneSamples }

    /// See ``TaggedPayloadDecoder/drainPlayed(_:)``.
    package mutating func drainPlayed(_ body: (UInt64) -> Void) -> Int {
        buffer.decoder.drainPlayed(body)
    }
}
