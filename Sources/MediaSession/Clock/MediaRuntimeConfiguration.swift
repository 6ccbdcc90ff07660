import Foundation

/// How a ``MediaRuntime`` runs many calls: how many I/O threads, how often each session is
/// ticked and how finely each thread's media clock spreads those ticks, which clock paces them. Every property has a documented
/// default; the defaults suit a media server, IVR, recorder or load generator carrying hundreds
/// of legs on one machine.
public struct MediaRuntimeConfiguration: Sendable {
    /// The epoll I/O threads serving every session's sockets and running their ticks. Default:
    /// one per core the process may run on (`ProcessInfo.activeProcessorCount`).
    public var ioThreadCount: Int
    /// Datagrams taken per `recvmmsg` call on each I/O thread. Default 32 (at most 64).
    public var receiveBatchCapacity: Int
    /// How often each I/O thread wakes to run its due ticks and look at the sockets registered
    /// on it, in microseconds, instead of waking for every datagram (see ``UDPEventLoop``); nil
    /// to wake per arrival. The sessions' own sockets are read at their ticks, not here. Default
    /// 4000, the length of a tick slot: 250 wake-ups a second per thread however many calls, a
    /// packet on a registered socket waiting at most 4 ms (its kernel receive timestamp stays
    /// exact).
    public var receivePollIntervalMicroseconds: Int?
    /// How often each session is ticked, in milliseconds (a multiple of 10, at least 10): a tick
    /// serves the interval's 10 ms audio periods back to back as the last one falls due (each
    /// pulled from the jitter buffer at its own due time, played and captured; a packet sent
    /// per packet time, at the same instant as with 10 ms ticks), so a leg's state is brought
    /// into the cache once per interval rather than every 10 ms. Default 20, a server leg's
    /// packet time: half the ticks, each packet made in one pass. The cost: the endpoint gets
    /// the interval's audio at its end, so the first 10 ms of each is played up to 10 ms later
    /// than by a 10 ms tick. 10 ticks every period, as a softphone's own audio thread does.
    public var tickIntervalMilliseconds: Int
    /// Slots of each I/O thread's timer wheel over one tick interval: its sessions are spread
    /// over them, so their ticks run at `tickIntervalMilliseconds / tickSlots` steps instead of
    /// all at once. Default 5 (a slot every 4 ms at the default interval: the legs of a slot
    /// run in one wake-up, and 500 calls put about 100 legs in each). Each wake-up of a thread
    /// (a timer, a context switch, in a virtual machine exits to the host) cost about as much as
    /// a few legs' ticks where it was measured: 5 slots used 3–6 % less CPU per call than 10.
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
        receivePollIntervalMicroseconds: Int? = 4000,
        tickIntervalMilliseconds: Int = 20,
        tickSlots: Int = 5,
        maximumTickLagMilliseconds: Int = 40,
        clock: any MonotonicClock = SystemMonotonicClock()
    ) {
        self.ioThreadCount = max(1, ioThreadCount)
        self.receiveBatchCapacity = receiveBatchCapacity
        self.receivePollIntervalMicroseconds = receivePollIntervalMicroseconds.map { max(1, $0) }
        self.tickIntervalMilliseconds = max(1, tickIntervalMilliseconds / 10) * 10
        self.tickSlots = max(1, tickSlots)
        self.maximumTickLagMilliseconds = max(0, maximumTickLagMilliseconds)
        self.clock = clock
    }
}
