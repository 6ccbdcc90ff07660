/// Decoded PCM waiting to be played: interleaved 16-bit samples in one allocation made at
/// creation, kept contiguous (the live region slides back to the front when the tail runs out
/// of room) so time-stretching can work on it in place.
struct PCMQueue: ~Copyable {
    let channels: Int
    /// Capacity in samples per channel.
    let capacity: Int
    private let storage: UnsafeMutableBufferPointer<Int16>
    private var start = 0
    private var end = 0

    init(capacity: Int, channels: Int) {
        self.channels = max(channels, 1)
        self.capacity = max(capacity, 1)
        storage = .allocate(capacity: self.capacity * self.channels)
        storage.initialize(repeating: 0)
    }

    deinit { storage.deallocate() }

    /// Samples per channel queued (mono without a division: this is read several times a pull).
    var count: Int { channels == 1 ? end - start : (end - start) / channels }

    /// Room left, in samples per channel.
    var freeCapacity: Int { capacity - count }

    mutating func removeAll() {
        start = 0
        end = 0
    }

    /// Appends up to `freeCapacity` frames of `samples` (interleaved).
    mutating func append(_ samples: UnsafeBufferPointer<Int16>) {
        let frames = min(samples.count / channels, freeCapacity)
        makeRoom(frames: frames)
        guard frames > 0, let source = samples.baseAddress, let base = storage.baseAddress else { return }
        (base + end).update(from: source, count: frames * channels)
        end += frames * channels
    }

    /// Moves up to `frames` samples per channel from the head into `destination` (interleaved).
    mutating func read(frames: Int, into destination: UnsafeMutableBufferPointer<Int16>) {
        let frames = min(min(frames, count), destination.count / channels)
        if frames > 0, let target = destination.baseAddress, let base = storage.baseAddress {
            target.update(from: base + start, count: frames * channels)
        }
        discardHead(frames: frames)
    }

    /// Drops up to `frames` samples per channel from the head.
    mutating func discardHead(frames: Int) {
        start += min(max(frames, 0), count) * channels
        if start == end { removeAll() }
    }

    /// The queued samples followed by room for up to `extraFrames` more, for in-place editing;
    /// report the edit with ``commitEdit(change:)``.
    mutating func liveRegion(extraFrames: Int) -> UnsafeMutableBufferPointer<Int16> {
        let extra = min(max(extraFrames, 0), freeCapacity)
        makeRoom(frames: extra)
        return UnsafeMutableBufferPointer(rebasing: storage[start..<(end + extra * channels)])
    }

    /// Records an edit of the live region: `change` frames inserted (before its end) or, when
    /// negative, removed from its head.
    mutating func commitEdit(change: Int) {
        if change >= 0 {
            end = min(end + change * channels, storage.count)
        } else {
            discardHead(frames: -change)
        }
    }

    /// The mean magnitude of the last `frames` queued frames, for level tracking.
    func meanAbsoluteLevel(lastFrames frames: Int) -> Double {
        let frames = min(frames, count)
        guard frames > 0, let base = storage.baseAddress else { return 0 }
        // Eight magnitudes at a time (a sample's sign spread over it: (x ^ s) − s, which wraps
        // −32 768 to the bit pattern of 32 768) in 32-bit lanes, 65 536 samples at a time so
        // that no lane can wrap.
        let raw = UnsafeRawPointer(base)
        var sum = 0
        var start = end - frames * channels
        while start < end {
            let stop = min(start + 65_536, end)
            var lanes = SIMD8<UInt32>()
            while start &+ 8 <= stop {
                let samples = raw.loadUnaligned(fromByteOffset: start &* 2, as: SIMD8<Int16>.self)
                let sign = samples &>> 15
                lanes &+= SIMD8<UInt32>(truncatingIfNeeded: SIMD8<UInt16>(truncatingIfNeeded: (samples ^ sign) &- sign))
                start &+= 8
            }
            while start < stop {
                sum += Int(base[start].magnitude)
                start += 1
            }
            sum += Int(lanes.wrappedSum())
        }
        return Double(sum) / Double(frames * channels)
    }

    /// Reports to `visit` the queued samples and room for `frames` more after them, what the
    /// next reads and appends touch, for warming it into the cache ahead.
    func hotRegions(appending frames: Int, _ visit: (UnsafeRawPointer, Int) -> Void) {
        guard let base = storage.baseAddress else { return }
        let stop = min(end + max(frames, 0) * channels, storage.count)
        visit(UnsafeRawPointer(base + start), (stop - start) * MemoryLayout<Int16>.stride)
    }

    private mutating func makeRoom(frames: Int) {
        guard end + frames * channels > storage.count, start > 0 else { return }
        let live = end - start
        if let base = storage.baseAddress { base.update(from: base + start, count: live) }
        start = 0
        end = live
    }
}
