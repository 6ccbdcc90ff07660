/// The threads that carry many calls at once: one shared media clock (a timing thread that
/// runs every session's 10 ms audio tick from a timer wheel) and one epoll I/O thread per core
/// serving all their sockets. However many sessions run on it, the runtime has
/// ``threadCount`` threads.
///
/// A softphone needs none: a ``MediaSession`` created without a runtime keeps its own audio
/// thread, paced by its device, and its own I/O thread. A server creates one runtime and
/// passes it to every session (``MediaSession/init(configuration:runtime:)``); the session
/// configuration for such legs is ``MediaSessionConfiguration/serverLeg(audio:)``. The audio
/// endpoints of those sessions must not block (``AudioEndpoint``): one thread ticks them all.
///
/// ```swift
/// let runtime = try MediaRuntime()                      // 1 clock thread + 1 I/O thread per core
/// let leg = try MediaSession(configuration: .serverLeg(audio: .endpoint(myEndpoint)), runtime: runtime)
/// // … start, stop many legs …
/// runtime.shutdown()                                    // after the sessions have stopped
/// ```
public final class MediaRuntime: Sendable {
    /// The configuration the runtime was started with.
    public let configuration: MediaRuntimeConfiguration
    /// The I/O threads.
    public let eventLoops: UDPEventLoopGroup
    let mediaClock: SharedMediaClock

    /// Starts the clock thread and the I/O threads.
    /// - Throws: ``MediaSessionError/transport(_:)`` when an I/O thread's epoll cannot be created.
    public init(configuration: MediaRuntimeConfiguration = MediaRuntimeConfiguration()) throws(MediaSessionError) {
        self.configuration = configuration
        do {
            eventLoops = try UDPEventLoopGroup(
                threadCount: configuration.ioThreadCount, batchCapacity: configuration.receiveBatchCapacity,
                pollIntervalNanoseconds: configuration.receivePollIntervalMicroseconds.map { Int64($0) * 1000 }, clock: configuration.clock
            )
        } catch {
            throw .transport(error)
        }
        mediaClock = SharedMediaClock(
            clock: configuration.clock, slotCount: configuration.tickSlots,
            maximumLagNanoseconds: Int64(configuration.maximumTickLagMilliseconds) * 1_000_000
        )
    }

    deinit {
        shutdown()
    }

    /// The threads the runtime runs: the media clock's and one per I/O loop.
    public var threadCount: Int {
        1 + eventLoops.loops.count
    }

    /// How many sessions the media clock ticks now (a stopped session leaves right after its
    /// last tick, which sent its BYE).
    public var sessionCount: Int {
        mediaClock.memberCount
    }

    /// Stops the threads and waits for them. Stop the sessions first: one still running ends
    /// as if stopped (its BYE goes out) and receives nothing more. Idempotent.
    public func shutdown() {
        mediaClock.shutdown()
        eventLoops.shutdown()
    }
}
