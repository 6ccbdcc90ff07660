/// The state SRTP keeps per SSRC: the RTP index and replay window, the SRTCP indices.
struct SRTPStream {
    /// The synchronisation source.
    var ssrc: UInt32
    /// The RTP packet index and replay window.
    var rtp: SRTPReplayWindow
    /// The SRTCP indices sent and received.
    var rtcp = SRTCPIndexState()
    /// When the stream was last used, in lookups, for eviction.
    var lastUse: UInt64 = 0
}

/// The per-SSRC streams of one session, in storage allocated once when the session is created.
///
/// A stream is added when an SSRC's first packet is protected, or has authenticated (so forged
/// packets cost nothing). When the table is full the least recently used stream gives way.
struct SRTPStreamTable: ~Copyable {
    private let streams: UnsafeMutablePointer<SRTPStream>
    private let windowBits: UnsafeMutablePointer<UInt64>
    private let capacity: Int
    private let windowLength: Int
    private let wordsPerWindow: Int
    private(set) var count = 0
    private var clock: UInt64 = 0

    /// Room for `capacity` streams with replay windows of `windowLength` indices.
    init(capacity: Int, windowLength: Int) {
        self.capacity = capacity
        self.windowLength = windowLength
        var words = 1
        while words * 64 < windowLength { words *= 2 }
        wordsPerWindow = words
        streams = .allocate(capacity: capacity)
        windowBits = .allocate(capacity: capacity * words)
        windowBits.initialize(repeating: 0, count: capacity * words)
    }

    deinit {
        streams.deinitialize(count: count)
        streams.deallocate()
        windowBits.deallocate()
    }

    /// Reports the streams in use and their replay windows to `visit` (for warming them ahead
    /// of a packet).
    func hotRegions(_ visit: (UnsafeRawPointer, Int) -> Void) {
        guard count > 0 else { return }
        visit(UnsafeRawPointer(streams), count * MemoryLayout<SRTPStream>.stride)
        visit(UnsafeRawPointer(windowBits), count * wordsPerWindow * MemoryLayout<UInt64>.stride)
    }

    /// The slot of `ssrc`'s stream, or `nil` when there is none.
    mutating func slot(of ssrc: UInt32) -> Int? {
        clock &+= 1
        for slot in 0..<count where streams[slot].ssrc == ssrc {
            streams[slot].lastUse = clock
            return slot
        }
        return nil
    }

    /// The slot of `ssrc`'s stream, added fresh (evicting the least recently used when full)
    /// if there was none.
    mutating func slotAdding(_ ssrc: UInt32) -> Int {
        if let slot = slot(of: ssrc) { return slot }
        let slot: Int
        if count < capacity {
            slot = count
            count += 1
        } else {
            slot = (0..<count).min { streams[$0].lastUse < streams[$1].lastUse } ?? 0
            streams.advanced(by: slot).deinitialize(count: 1)
        }
        let window = SRTPReplayWindow(
            length: windowLength, bits: windowBits.advanced(by: slot * wordsPerWindow), wordCount: wordsPerWindow)
        streams.advanced(by: slot).initialize(to: SRTPStream(ssrc: ssrc, rtp: window, lastUse: clock))
        return slot
    }

    /// The stream in `slot`, to read or change in place (through addressors: no coroutine,
    /// which a debug build would allocate for).
    subscript(slot: Int) -> SRTPStream {
        unsafeAddress { UnsafePointer(streams + slot) }
        nonmutating unsafeMutableAddress { streams + slot }
    }
}
