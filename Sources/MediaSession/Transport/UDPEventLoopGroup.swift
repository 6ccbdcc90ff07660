import Synchronization

/// A fixed set of ``UDPEventLoop``s, one I/O thread each, that many sessions share: each new
/// session's sockets go to the next loop in turn, so the threads stay as many as the loops
/// however many calls there are.
public final class UDPEventLoopGroup: Sendable {
    /// The loops, in the order they are handed out.
    public let loops: [UDPEventLoop]
    private let nextIndex = Atomic<Int>(0)

    /// Starts `threadCount` loops (at least one).
    /// - Parameters:
    ///   - threadCount: how many loops (I/O threads) to start; at least one is.
    ///   - batchCapacity: datagrams per recvmmsg call on every loop.
    ///   - pollIntervalNanoseconds: nil to wake per arrival, or the beat every loop polls on
    ///     (see ``UDPEventLoop``).
    ///   - clock: the clock of that beat.
    /// - Throws: ``TransportError`` when a loop cannot be created (the ones already started are stopped).
    public convenience init(
        threadCount: Int, batchCapacity: Int = 32, pollIntervalNanoseconds: Int64? = nil, clock: any MonotonicClock = SystemMonotonicClock()
    ) throws(TransportError) {
        try self.init(threadCount: threadCount, batchCapacity: batchCapacity, pollIntervalNanoseconds: pollIntervalNanoseconds, clock: clock) { _ in nil }
    }

    /// Loops whose thread number `index` also runs `beat(index)` after each look at its sockets.
    init(
        threadCount: Int, batchCapacity: Int, pollIntervalNanoseconds: Int64?, clock: any MonotonicClock,
        beat: (Int) -> UDPEventLoop.Beat?
    ) throws(TransportError) {
        var loops: [UDPEventLoop] = []
        do {
            for index in 0..<max(1, threadCount) {
                loops.append(
                    try UDPEventLoop(
                        batchCapacity: batchCapacity, pollIntervalNanoseconds: pollIntervalNanoseconds, clock: clock, beat: beat(index)
                    ))
            }
        } catch {
            for loop in loops { loop.shutdown() }
            throw error
        }
        self.loops = loops
    }

    /// The loop the next session should use (round robin).
    public func next() -> UDPEventLoop {
        loops[nextLoopIndex()]
    }

    /// The index in ``loops`` of the loop the next session should use (round robin).
    func nextLoopIndex() -> Int {
        nextIndex.add(1, ordering: .relaxed).oldValue % loops.count
    }

    /// Stops every loop and waits for their threads. Idempotent.
    public func shutdown() {
        for loop in loops { loop.shutdown() }
    }
}
