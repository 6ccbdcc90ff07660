import Foundation

/// How a ``MediaRuntime`` runs many calls: how many I/O threads, how finely each thread's media
/// clock spreads its sessions' ticks, which clock paces them. Every property has a documented
/// default; the defaults suit a media server, IVR, recorder or load generator carrying hundreds
/// of legs on one machine.
public struct MediaRuntimeConfiguration: Sendable {
    /// The epoll I/O threads serving every session's sockets and running their ticks. Default:
    /// one per core the process may run on (`ProcessInfo.activeProcessorCount`).
    public var ioThreadCount: Int
    /// Datagrams taken per `recvmmsg` call on each I/O thread. Default 32 (at most 64).
    public var receiveBatchCapacity: Int
    /// How often each I/O thread looks at its sockets, in microseconds, instead of waking for
    /// every datagram (see ``UDPEventLoop``); nil to wake per arrival. Default 1000: at most a
    /// thousand wake-ups a second per thread however many calls, a packet waiting at most 1 ms
    /// (its kernel receive timestamp stays exact).
    public var receivePollIntervalMicroseconds: Int?
    /// Slots of each I/O thread's timer wheel over one 10 ms period: its sessions are spread over
    /// them, so their ticks run at `10 ms / tickSlots` steps instead of all at once. Default 10
    /// (a slot a millisecond).
    public var tickSlots: Int
    /// How far a media clock may fall behind before it skips ahead rather than catching up
    /// in a burst, in milliseconds. Default 40 (four periods, as a softphone session's own timer).
    public var maximumTickLagMilliseconds: Int
    /// The clock that paces the ticks. Default ``SystemMonotonicClock``.
    public var clock: any MonotonicClock

    /// A configuration with the documented defaults, overridden by whatever is passed.
    public init(
        ioThreadCount: Int = ProcessInfo.processInfo.activeProcessorCount,
        receiveBatchCapacity: Int = 32,
        receivePollIntervalMicroseconds: Int? = 1000,
        tickSlots: Int = 10,
        maximumTickLagMilliseconds: Int = 40,
        clock: any MonotonicClock = SystemMonotonicClock()
    ) {
        self.ioThreadCount = max(1, ioThreadCount)
        self.receiveBatchCapacity = receiveBatchCapacity
        self.receivePollIntervalMicroseconds = receivePollIntervalMicroseconds.map { max(1, $0) }
        self.tickSlots = max(1, tickSlots)
        self.maximumTickLagMilliseconds = max(0, maximumTickLagMilliseconds)
        self.clock = clock
    }
}
