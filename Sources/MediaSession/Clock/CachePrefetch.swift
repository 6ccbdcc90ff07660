internal import CNetShims

/// Hints that bring memory into the cache before a tick needs it (the processor's prefetch:
/// it never faults and changes nothing the program sees). A thread ticking hundreds of legs
/// finds each leg's state gone from the caches since its last tick; warming the next legs while
/// one ticks overlaps those misses with work instead of taking them one at a time.
enum CachePrefetch {
    /// The cache line size of the processors the engine runs on.
    static let lineBytes = 64

    /// The cache lines `object`'s storage spans (its heap block, by glibc), at most `limit`.
    /// Only for objects the engine itself allocated at run time (an application's object may be
    /// statically allocated, outside the heap). It reads the block's header: call it while the
    /// object is in the cache (when it is made), and keep the figure where the warming reads it.
    static func lines(of object: AnyObject, limit: Int = 64) -> Int {
        let bytes = mb_allocation_size(Unmanaged.passUnretained(object).toOpaque())
        return min(max((bytes + lineBytes - 1) / lineBytes, 1), limit)
    }

    /// Prefetches the first `lines` cache lines of `object`'s storage (generic, so that no
    /// existential is made: making one retains the object, a write to the line being warmed).
    @inline(__always)
    static func object<Object: AnyObject>(_ object: Object, lines: Int) {
        memory(UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()), lines: lines)
    }

    /// The address of `object`'s storage as an integer, for warming it later without a
    /// reference (passing a reference retains the object: a write to the line being warmed).
    static func address(of object: AnyObject) -> UInt {
        UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
    }

    /// Prefetches `lines` cache lines from the address ``address(of:)`` gave; nothing for 0.
    @inline(__always)
    static func memory(atAddress address: UInt, lines: Int) {
        guard let start = UnsafeRawPointer(bitPattern: address) else { return }
        memory(start, lines: lines)
    }

    /// Prefetches every cache line that the `bytes` bytes at `address` touch (a region a part
    /// reports through its `hotRegions`).
    @inline(__always)
    static func region(_ address: UnsafeRawPointer, bytes: Int) {
        guard bytes > 0 else { return }
        let offset = Int(bitPattern: address) & (lineBytes - 1)
        memory(address - offset, lines: (offset + bytes + lineBytes - 1) / lineBytes)
    }

    /// Prefetches `lines` cache lines from `address`.
    @inline(__always)
    static func memory(_ address: UnsafeRawPointer, lines: Int) {
        for line in 0..<lines { mb_prefetch(address + line * lineBytes) }
    }
}

/// The stages in which a ``SharedMediaClock`` warms the members about to tick, each a member
/// nearer its tick than the one before (the last at its own turn), so that each stage reads
/// only pointers the stage before brought into the cache (reading a cold pointer would stall on
/// it, as the tick would).
enum PrefetchStage: CaseIterable {
    /// The member's own object (warmed by the clock from its address, see ``SharedMediaClock``).
    case object
    /// The objects it holds references to.
    case parts
    /// What those parts hold.
    case partsOfParts
    /// What the parts' parts hold, at the member's own turn, just before its tick: the tick
    /// begins with a system call (reading its sockets), which gives them time to arrive.
    case deepParts

    /// How many members before its tick a member is warmed at this stage.
    var membersAhead: Int {
        switch self {
        case .object: 3
        case .parts: 2
        case .partsOfParts: 1
        case .deepParts: 0
        }
    }
}
