internal import CNetShims
import Foundation
import Locking

/// One I/O thread serving many sockets through epoll: each socket epoll reports (edge-triggered:
/// once per arrival) is drained in batches (recvmmsg) and every datagram is handed to that
/// socket's handler on the I/O thread.
///
/// By default the thread sleeps in `epoll_wait` and wakes for each arrival: the least delay, for
/// a softphone. With a poll interval it instead wakes on a fixed beat of its clock and takes
/// whatever arrived since (`epoll_wait` without waiting): a server carrying hundreds of calls
/// then wakes once per interval however many packets arrive, instead of once or more per
/// packet, and a sender's `sendto` on loopback no longer has a sleeping thread to wake.
/// Arrival times stay exact (kernel receive timestamps); a packet waits at most one interval.
///
/// Handlers must be quick (parse, unprotect, insert into the jitter buffer) and must not keep
/// the datagram's bytes past the call. Sending is done directly on the ``UDPSocket`` from any thread.
///
/// A ``MediaRuntime``'s loops also run the audio ticks of the sessions they carry, after each
/// look at the sockets (its shared media clock); those sessions' sockets are not registered:
/// each tick reads its own.
public final class UDPEventLoop: Sendable {
    /// Called on the I/O thread for each received datagram; its bytes are valid during the call only.
    public typealias Handler = @Sendable (ReceivedDatagram) -> Void
    /// Work the thread runs after each look at its sockets (a media clock's due ticks, which
    /// read their own sockets into the thread's batch); returns when it is next due on the
    /// loop's clock, or nil when nothing is scheduled.
    typealias Beat = @Sendable (inout DatagramBatch) -> Int64?

    private struct Registration {
        let socket: UDPSocket
        let handler: Handler
    }

    private struct State {
        var registrations: [UInt64: Registration] = [:]
        var nextToken: UInt64 = 1
        var stopping = false
        /// The I/O thread, once it runs.
        var ioThread: pthread_t?
    }

    private let epoll: Int32
    private let wakeUp: Int32
    private let state = PThreadLock(State())
    private let finished = DispatchSemaphore(value: 0)
    /// Datagrams received per socket drain; also the batch size of each recvmmsg call.
    private let batchCapacity: Int
    /// The beat the thread polls on, or nil to wake per arrival.
    private let pollIntervalNanoseconds: Int64?
    private let clock: any MonotonicClock
    private let beat: Beat?

    /// Starts the I/O thread.
    /// - Parameters:
    ///   - batchCapacity: datagrams per recvmmsg call (default 32, at most 64).
    ///   - pollIntervalNanoseconds: nil (the default) to wake for each arrival, or the beat to
    ///     look at the sockets on (a ``MediaRuntime``'s: 4 ms by default).
    ///   - clock: the clock of that beat (default the system's monotonic clock).
    /// - Throws: ``TransportError`` when epoll or eventfd cannot be created.
    public convenience init(
        batchCapacity: Int = 32, pollIntervalNanoseconds: Int64? = nil, clock: any MonotonicClock = SystemMonotonicClock()
    ) throws(TransportError) {
        try self.init(batchCapacity: batchCapacity, pollIntervalNanoseconds: pollIntervalNanoseconds, clock: clock, beat: nil)
    }

    /// A loop that also runs `beat` after each look at its sockets.
    init(batchCapacity: Int, pollIntervalNanoseconds: Int64?, clock: any MonotonicClock, beat: Beat?) throws(TransportError) {
        let epoll = mb_epoll_create()
        guard epoll >= 0 else { throw TransportError(operation: "epoll_create1", subject: "", code: -epoll) }
        let wakeUp = mb_eventfd_create()
        guard wakeUp >= 0 else {
            close(epoll)
            throw TransportError(operation: "eventfd", subject: "", code: -wakeUp)
        }
        let status = mb_epoll_add(epoll, wakeUp, 0)
        guard status == 0 else {
            close(epoll)
            close(wakeUp)
            throw TransportError(operation: "epoll_ctl", subject: "wake-up eventfd", code: -status)
        }
        self.epoll = epoll
        self.wakeUp = wakeUp
        self.batchCapacity = batchCapacity
        self.pollIntervalNanoseconds = pollIntervalNanoseconds.map { max($0, 1) }
        self.clock = clock
        self.beat = beat
        MediaThread.start(named: "media-io") { [self] in run() }
    }

    deinit {
        close(epoll)
        close(wakeUp)
    }

    /// Starts delivering `socket`'s datagrams to `handler`. Returns a token for ``unregister(_:)``.
    /// - Throws: ``TransportError`` when epoll refuses the socket.
    @discardableResult
    public func register(_ socket: UDPSocket, handler: @escaping Handler) throws(TransportError) -> UInt64 {
        let token = state.withLock { state in
            let token = state.nextToken
            state.nextToken += 1
            state.registrations[token] = Registration(socket: socket, handler: handler)
            return token
        }
        let status = mb_epoll_add(epoll, socket.descriptor, token)
        guard status == 0 else {
            _ = state.withLock { $0.registrations.removeValue(forKey: token) }
            throw TransportError(operation: "epoll_ctl", subject: socket.localAddress.description, code: -status)
        }
        return token
    }

    /// Stops delivering the datagrams of the socket registered under `token`. After it
    /// returns, the handler may still be running once on the I/O thread, never again after that.
    public func unregister(_ token: UInt64) {
        guard let registration = state.withLock({ $0.registrations.removeValue(forKey: token) }) else { return }
        _ = mb_epoll_remove(epoll, registration.socket.descriptor)
    }

    /// Wakes the thread if it is waiting for a datagram, so that it looks at its beat again
    /// (a session just joined its media clock).
    func wake() {
        _ = mb_eventfd_signal(wakeUp)
    }

    /// Stops the I/O thread and waits for it to finish; the thread drops every handler as it
    /// ends, so a handler may hold the loop's owner strongly. Idempotent. Called from a handler (on
    /// the I/O thread itself, for instance when the handler releases the loop's last owner),
    /// it does not wait: the thread ends when the handler returns.
    public func shutdown() {
        let (first, onIOThread) = state.withLock { state in
            defer { state.stopping = true }
            return (!state.stopping, state.ioThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false)
        }
        guard first else { return }
        _ = mb_eventfd_signal(wakeUp)
        if !onIOThread { finished.wait() }
    }

    private func run() {
        state.withLock { $0.ioThread = pthread_self() }
        var batch = DatagramBatch(capacity: batchCapacity)
        var ready = [UInt64](repeating: 0, count: 64)
        var nextPoll = clock.nanoseconds()
        var nextBeat: Int64?
        while true {
            if let interval = pollIntervalNanoseconds {
                nextPoll = max(nextPoll + interval, clock.nanoseconds() - interval)
                clock.sleep(untilNanoseconds: nextPoll)
            }
            let count = ready.withUnsafeMutableBufferPointer {
                Int(mb_epoll_wait(epoll, $0.baseAddress, Int32($0.count), pollIntervalNanoseconds == nil ? waitMilliseconds(until: nextBeat) : 0))
            }
            if state.withLock({ $0.stopping }) { break }
            // A failing epoll_wait (not EINTR, which the shim absorbs) leaves nothing to wait on.
            if count < 0 { break }
            for index in 0..<count {
                let token = ready[index]
                if token == 0 {
                    _ = mb_eventfd_drain(wakeUp)
                    continue
                }
                guard let registration = state.withLock({ $0.registrations[token] }) else { continue }
                drain(registration, into: &batch)
            }
            // More sockets were ready than one epoll_wait returns: take the rest before sleeping.
            if count == ready.count { nextPoll -= pollIntervalNanoseconds ?? 0 }
            if let beat { nextBeat = beat(&batch) }
        }
        // The handlers (and their sockets) go with the thread: a handler that holds the loop's
        // owner, who holds the loop, would otherwise keep both, and the sockets' descriptors,
        // alive for ever. Dropped outside the lock (an owner's deinit may call back in) and
        // before `shutdown()` returns.
        var handlers: [UInt64: Registration] = [:]
        state.withLock { swap(&handlers, &$0.registrations) }
        handlers.removeAll()
        finished.signal()
    }

    /// How long `epoll_wait` may wait for a datagram before the beat is due: whole
    /// milliseconds, rounded up; -1 (for ever) with nothing scheduled.
    private func waitMilliseconds(until deadline: Int64?) -> Int32 {
        guard let deadline else { return -1 }
        return Int32(clamping: max(0, (deadline - clock.nanoseconds() + 999_999) / 1_000_000))
    }

    /// Receives until the socket has nothing waiting (epoll reports a socket once per arrival,
    /// so what is left now would wait for the next one), handing each datagram to the handler.
    private func drain(_ registration: Registration, into batch: inout DatagramBatch) {
        registration.socket.receiveAll(into: &batch) { registration.handler($0) }
    }
}
