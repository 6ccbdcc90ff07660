import Codecs
import Locking

/// A ``JitterBuffer`` shared by a network thread, which inserts, and an audio thread, which pulls.
///
/// Inserting copies the payload under a lock into an inbox slot that the buffer's store lent
/// it, the one copy the payload makes; each pull swaps the inbox for an empty one under the
/// lock, then hands the packets to the buffer, which keeps each payload in the slot it was
/// written to, and decodes outside the lock. The critical sections are a memcpy and a pointer
/// swap, nothing allocates after creation, and nothing waits on I/O. Pulls are also serialised among
/// themselves, so calling from several threads is safe, if pointless.
public final class SynchronizedJitterBuffer<Decoder: AudioDecoder>: @unchecked Sendable {
    // Safe to share: `filling` and `published` are only touched under `inboxLock`; `buffer`
    // and `draining` only under `pullLock`. The per-packet and per-pull methods are inlinable
    // (so these are usable from inlinable code): specialised in the caller's module, they call
    // the buffer with its type's metadata from a cache, where unspecialised code asked the
    // runtime's generic metadata table for `JitterBuffer<Decoder>` at every call. The locks
    // make each access exclusive, so Swift's run-time exclusivity check on them is off.
    @usableFromInline let inboxLock = PThreadMutex()
    @usableFromInline let pullLock = PThreadMutex()
    @exclusivity(unchecked) private var filling: PacketInbox
    @exclusivity(unchecked) private var draining: PacketInbox
    @usableFromInline @exclusivity(unchecked) var buffer: JitterBuffer<Decoder>
    @usableFromInline @exclusivity(unchecked) var published = JitterBufferStatistics()
    @usableFromInline @exclusivity(unchecked) var droppedByInbox = 0

    /// A buffer decoding with `decoder`, whose inbox holds up to `inboxCapacity` packets
    /// between two pulls (more are dropped and counted as discarded).
    public init(
        decoder: Decoder, configuration: JitterBufferConfiguration = JitterBufferConfiguration(), inboxCapacity: Int = 64
    ) {
        filling = PacketInbox(capacity: inboxCapacity)
        draining = PacketInbox(capacity: inboxCapacity)
        // Both inboxes full of lent slots, besides the store's own packet capacity.
        buffer = JitterBuffer(decoder: decoder, configuration: configuration, lendableSlots: filling.capacity + draining.capacity)
        published.targetDelayMilliseconds = configuration.initialDelayMilliseconds
        filling.restock { buffer.lendSlot() }
        draining.restock { buffer.lendSlot() }
    }

    /// Hands over one packet that arrived at `arrivalMilliseconds`; returns `false` when it had
    /// to be dropped (the inbox is full or the payload too large).
    @discardableResult
    public func insert(_ packet: IncomingPacket, arrivalMilliseconds: Double) -> Bool {
        inboxLock.withLock {
            let kept = filling.append(packet, arrivalMilliseconds: arrivalMilliseconds)
            if !kept { droppedByInbox += 1 }
            return kept
        }
    }

    /// Hands one packet that arrived at `arrivalMilliseconds` straight to the buffer, under the
    /// pull lock, without the inbox: for a caller that inserts and pulls on the same thread,
    /// where handing packets over between threads buys nothing (such a buffer needs an inbox of
    /// one). The buffer copies the payload into its store and takes the packets in the order,
    /// and at the arrival times, the inbox would have handed them over at the next pull.
    /// Returns `false` when the payload was too large to keep.
    @inlinable @discardableResult
    public func insertDirectly(_ packet: IncomingPacket, arrivalMilliseconds: Double) -> Bool {
        pullLock.withLock { buffer.insert(packet, arrivalMilliseconds: arrivalMilliseconds) != .oversized }
    }

    /// Reports to `visit` the memory beyond this object that the next insert and pulls touch:
    /// the two locks and the buffer's storage (``JitterBuffer/hotRegions(_:)``). Only for the
    /// thread that inserts and pulls (it reads the buffer's fields without the lock), which
    /// warms it into the cache ahead; `visit` may only read it.
    @inlinable
    package func hotRegions(_ visit: (UnsafeRawPointer, Int) -> Void) {
        pullLock.hotRegions(visit)
        inboxLock.hotRegions(visit)
        buffer.hotRegions(visit)
    }

    /// Plays the next 10 ms at `nowMilliseconds` (the clock of the arrival times); see
    /// ``JitterBuffer/pull(into:nowMilliseconds:)``.
    @inlinable
    public func pull(into output: UnsafeMutableBufferPointer<Int16>, nowMilliseconds: Double) -> PlayoutDecision {
        pullLock.withLock {
            takeArrivals()
            let decision = buffer.pull(into: output, nowMilliseconds: nowMilliseconds)
            let statistics = buffer.statistics
            inboxLock.withLock {
                published = statistics
                published.packetsReceived += droppedByInbox
                published.packetsDiscarded += droppedByInbox
            }
            return decision
        }
    }

    /// Hands the packets in the inbox to the buffer; under the pull lock. An empty inbox
    /// (always, for a caller that inserts directly) is left as it is.
    @usableFromInline func takeArrivals() {
        let arrived = inboxLock.withLock { () -> Bool in
            guard filling.count > 0 else { return false }
            swap(&filling, &draining)
            return true
        }
        if arrived {
            draining.drain { slot, packet, arrival in buffer.insert(lentSlot: slot, packet, arrivalMilliseconds: arrival) }
            draining.restock { buffer.lendSlot() }
        }
    }

    /// ``JitterBuffer/updateDelayOutsideBuffer(milliseconds:)`` under the pull lock (unless
    /// another buffer of the process asked for the same delay, it computes and allocates the
    /// new delay costs there: about 0.5 ms).
    public func updateDelayOutsideBuffer(milliseconds: Double) {
        pullLock.withLock { buffer.updateDelayOutsideBuffer(milliseconds: milliseconds) }
    }

    /// The statistics as of the last pull (inbox drops included).
    public var statistics: JitterBufferStatistics {
        inboxLock.withLock { published }
    }

    /// Samples per channel produced by each pull: 10 ms.
    public var samplesPerPull: Int { pullLock.withLock { buffer.samplesPerPull } }
}
