/// The threads that carry many calls at once: one epoll I/O thread per core, each serving the
/// sockets of its share of the sessions and running their audio ticks from its own
/// timer wheel (its shared media clock), after each look at its sockets. A session's receive
/// path and its tick thus run on one thread: nothing of a call moves between cores, and the
/// cores share the calls. However many sessions run on it, the runtime has ``threadCount``
/// threads.
///
/// A softphone needs none: a ``MediaSession`` created without a runtime keeps its own audio
/// thread, paced by its device, and its own I/O thread. A server creates one runtime and
/// passes it to every session (``MediaSession/init(configuration:runtime:)``); the session
/// configuration for such legs is ``MediaSessionConfiguration/serverLeg(audio:)``. The audio
/// endpoints of those sessions must not block (``AudioEndpoint``): one thread ticks many.
///
/// ```swift
/// let runtime = try MediaRuntime()                      // one I/O thread per core
/// let leg = try MediaSession(configuration: .serverLeg(audio: .endpoint(myEndpoint)), runtime: runtime)
/// // … start, stop many legs …
/// runtime.shutdown()                                    // after the sessions have stopped
/// ```
public final class MediaRuntime: Sendable {
    /// The configuration the runtime was started with.
    public let configuration: MediaRuntimeConfiguration
    /// The I/O threads.
    public let eventLoops: UDPEventLoopGroup
    /// The media clock each I/O thread runs, in the order of `eventLoops.loops`.
    private let mediaClocks: [SharedMediaClock]

    /// Starts the I/O threads.
    /// - Throws: ``MediaSessionError/transport(_:)`` when an I/O thread's epoll cannot be created.
    public init(configuration: MediaRuntimeConfiguration = MediaRuntimeConfiguration()) throws(MediaSessionError) {
        self.configuration = configuration
        let mediaClocks = (0..<configuration.ioThreadCount).map { _ in
            SharedMediaClock(
                clock: configuration.clock, periodsPerTick: configuration.tickIntervalMilliseconds / 10, slotCount: configuration.tickSlots,
                maximumLagNanoseconds: Int64(configuration.maximumTickLagMilliseconds) * 1_000_000
            )
        }
        do {
            eventLoops = try UDPEventLoopGroup(
                threadCount: configuration.ioThreadCount, batchCapacity: configuration.receiveBatchCapacity,
                pollIntervalNanoseconds: configuration.receivePollIntervalMicroseconds.map { Int64($0) * 1000 }, clock: configuration.clock
            ) { index in
                let mediaClock = mediaClocks[index]
                return { batch in mediaClock.runDueTicks(receivingInto: &batch) }
            }
        } catch {
            throw .transport(error)
        }
        self.mediaClocks = mediaClocks
    }

    deinit {
        shutdown()
    }

    /// The threads the runtime runs: one per I/O loop.
    public var threadCount: Int {
        eventLoops.loops.count
    }

    /// How many sessions the media clocks tick now (a stopped session leaves right after its
    /// last tick, which sent its BYE).
    public var sessionCount: Int {
        mediaClocks.reduce(0) { $0 + $1.memberCount }
    }

    /// The I/O thread the next session should use and the media clock it runs (round robin).
    func nextLane() -> (eventLoop: UDPEventLoop, mediaClock: SharedMediaClock) {
        let index = eventLoops.nextLoopIndex()
        return (eventLoops.loops[index], mediaClocks[index])
    }

    /// Stops the threads and waits for them. Stop the sessions first: one still running ends
    /// as if stopped (its BYE goes out) and receives nothing more. Idempotent.
    public func shutdown() {
        eventLoops.shutdown()
        for mediaClock in mediaClocks { mediaClock.stop() }
    }
}
