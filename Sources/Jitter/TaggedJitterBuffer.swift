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

    /// A buffer that decodes with `decoder`. Its store keeps one payload slot to lend, which
    /// ``insertTagged(_:sequence:samples:codecBytes:arrivalMilliseconds:)`` writes each media
    /// packet into.
    package init(decoder: TaggedPayloadDecoder, configuration: JitterBufferConfiguration) {
        buffer = JitterBuffer(decoder: decoder, configuration: configuration, lendableSlots: 1)
    }

    /// See ``JitterBuffer/timestampJumpMilliseconds``.
    package static var timestampJumpMilliseconds: Double { JitterBuffer<TaggedPayloadDecoder>.timestampJumpMilliseconds }

    /// See ``JitterBuffer/samplesPerPull``.
    package var samplesPerPull: Int { buffer.samplesPerPull }

    /// See ``JitterBuffer/insert(_:arrivalMilliseconds:)-(IncomingPacket,_)``.
    package mutating func insert(_ packet: IncomingPacket, arrivalMilliseconds: Double) {
        buffer.insert(packet, arrivalMilliseconds: arrivalMilliseconds)
    }

    /// Inserts the media packet `packet` (its own payload ignored) with the payload
    /// ``TaggedPayloadDecoder`` decodes: the tag of `sequence` and `samples`, then `codecBytes`.
    /// The payload is written straight into a lent slot of the store and handed over as the
    /// live receive path's inbox does (``JitterBuffer/insert(lentSlot:_:arrivalMilliseconds:)``),
    /// not assembled in a scratch buffer and copied again: the buffer decides exactly as
    /// ``insert(_:arrivalMilliseconds:)`` would with that payload. `codecBytes` must fit the
    /// store's payload limit after the tag (a longer one is not inserted).
    package mutating func insertTagged(
        _ packet: IncomingPacket, sequence: UInt64, samples: Int, codecBytes: UnsafeRawBufferPointer?,
        arrivalMilliseconds: Double
    ) {
        // The one lendable slot is always back by now: each lent slot is adopted or taken back below.
        guard let (slot, memory) = buffer.lendSlot() else { return }
        let length = TaggedPayloadDecoder.tagBytes + (codecBytes?.count ?? 0)
        guard length <= memory.count else { return buffer.takeBack(lentSlot: slot) }
        TaggedPayloadDecoder.writeTag(sequenceNumber: sequence, samples: samples, into: memory)
        if let codecBytes, !codecBytes.isEmpty {
            UnsafeMutableRawBufferPointer(rebasing: memory[TaggedPayloadDecoder.tagBytes...]).copyMemory(from: codecBytes)
        }
        var tagged = packet
        tagged.payload = UnsafeRawBufferPointer(rebasing: memory[..<length])
        buffer.insert(lentSlot: slot, tagged, arrivalMilliseconds: arrivalMilliseconds)
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
