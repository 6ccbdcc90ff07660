/// Relative delays of the packets that arrived since the last pull, held until the pull tells
/// how long each of them waited for it. Fixed capacity; when full, the oldest is recorded at
/// once with an average wait.
///
/// The entries lie in one block allocated at creation, each delay beside its arrival time: a
/// steady stream's packet and the pull after it touch the block's first line only, which
/// ``hotRegions(_:)`` reports for warming.
struct PendingArrivals: ~Copyable {
    private struct Entry {
        var relativeDelay = 0.0
        var arrivalMilliseconds = 0.0
    }

    private static let capacity = 64
    private let entries: UnsafeMutablePointer<Entry>
    private var count = 0

    init() {
        entries = .allocate(capacity: Self.capacity)
        entries.initialize(repeating: Entry(), count: Self.capacity)
    }

    deinit {
        entries.deallocate()
    }

    mutating func append(relativeDelay: Double, arrivalMilliseconds: Double, to estimator: inout DelayEstimator) {
        if count == Self.capacity {
            estimator.record(relativeDelay: entries[0].relativeDelay, waitMilliseconds: 5, arrivalMilliseconds: entries[0].arrivalMilliseconds)
            (entries + 0).update(from: entries + 1, count: count - 1)
            count -= 1
        }
        entries[count] = Entry(relativeDelay: relativeDelay, arrivalMilliseconds: arrivalMilliseconds)
        count += 1
    }

    /// Records every held arrival with its wait for the pull due at `nowMilliseconds`, at most
    /// `pullIntervalMilliseconds` (the longest a packet in time waits for a pull). A packet that
    /// came after that instant, taken by a pull that ran late, waited less than nothing: the
    /// delay it needed is the pull's, a point of the pull lattice, not the pull's lateness. A
    /// wait longer than a pull interval is not a delay the network needed either: datagrams that
    /// queued in the socket before the call's first pull (a SIP caller starts its session when
    /// the answer arrives, and the callee's media may already be on the way); counted whole, such
    /// a backlog of 300 ms set the target to 292 ms for the rest of a live call.
    mutating func record(at nowMilliseconds: Double, pullIntervalMilliseconds: Double, to estimator: inout DelayEstimator) {
        for index in 0..<count {
            let wait = min(nowMilliseconds - entries[index].arrivalMilliseconds, pullIntervalMilliseconds)
            estimator.record(
                relativeDelay: entries[index].relativeDelay, waitMilliseconds: wait, arrivalMilliseconds: entries[index].arrivalMilliseconds)
        }
        count = 0
    }

    /// Reports to `visit` the entries held and the one the next arrival fills.
    func hotRegions(_ visit: (UnsafeRawPointer, Int) -> Void) {
        visit(UnsafeRawPointer(entries), min(count + 1, Self.capacity) * MemoryLayout<Entry>.stride)
    }
}
