import Foundation
import MediaSession
import RTP

/// A user-space network between two sessions on loopback: real UDP sockets on 127.0.0.1 that
/// forward real datagrams both ways with the delays, losses, reordering and duplicates of a
/// ``RelayImpairment``.
///
/// The relay has one socket facing each session; each session is told (through SDP) that its
/// peer lives at the relay's socket facing it. A datagram reaching the socket facing the caller
/// is forwarded to the callee from the socket facing the callee, and the other way round, so
/// symmetric RTP latches onto the relay. A datagram's fate is decided when it arrives (kernel
/// receive time): dropped, or delivered at arrival + the fate's delay, once per copy. Deliveries
/// are timed on the monotonic clock, so a wall-clock step does not move them.
///
/// Threads: the datagrams arrive on a ``UDPEventLoop`` I/O thread, which only copies them into
/// the timer heap; one delivery thread sleeps on a condition until the earliest is due (no
/// busy-waiting), sends every due datagram and, with a ``WireCapture``, records it with the time
/// it left. Sends happen outside the lock.
final class ImpairmentRelay: Sendable {
    private struct Datagram {
        var bytes: [UInt8]
        var direction: RelayDirection
        var traffic: RelayTraffic
        var dueNanoseconds: Int64
    }

    private struct State {
        var impairment: RelayImpairment
        var heap = TimerHeap<Datagram>()
        var counts: [RelayCounts] = RelayDirection.allCases.map { _ in RelayCounts() }
        var stopping = false
    }

    /// The address the caller sends to (the callee's address in the caller's SDP).
    let callerFacingAddress: SocketAddress
    /// The address the callee sends to (the caller's address in the callee's SDP).
    let calleeFacingAddress: SocketAddress

    private let sockets: [UDPSocket]
    private let destinations: [SocketAddress]
    private let eventLoop: UDPEventLoop
    private let condition = NSCondition()
    // Only touched with `condition` locked.
    nonisolated(unsafe) private var state: State
    private let finished = DispatchSemaphore(value: 0)
    // Only the delivery thread touches it until `stop()` has waited for that thread.
    nonisolated(unsafe) private var capture: WireCapture?

    /// The RTP clock rate of the media, for ``RelayCounts/rtpSendingSpreadMilliseconds``.
    private let rtpClockRate: Int

    /// Binds the two sockets on the loopback and starts forwarding between `caller` and `callee`.
    /// - Parameters:
    ///   - rtpClockRate: the RTP clock rate of the media both ways (8000 for G.711, 48 000 for Opus).
    ///   - capture: where to record every forwarded datagram, if anywhere.
    init(
        caller: SocketAddress, callee: SocketAddress, impairment: RelayImpairment, rtpClockRate: Int = 8000,
        capture: WireCapture? = nil
    ) throws(TransportError) {
        self.rtpClockRate = max(rtpClockRate, 1)
        let options = UDPSocketOptions(dscp: nil)
        let callerFacing = try UDPSocket(binding: .loopbackIPv4(), options: options)
        let calleeFacing = try UDPSocket(binding: .loopbackIPv4(), options: options)
        callerFacingAddress = callerFacing.localAddress
        calleeFacingAddress = calleeFacing.localAddress
        // Indexed by direction: where datagrams going that way leave from, and go to.
        sockets = [calleeFacing, callerFacing]
        destinations = [callee, caller]
        state = State(impairment: impairment)
        self.capture = capture
        eventLoop = try UDPEventLoop()
        for (socket, direction) in [(callerFacing, RelayDirection.callerToCallee), (calleeFacing, .calleeToCaller)] {
            _ = try eventLoop.register(socket) { [self] datagram in
                arrived(datagram, going: direction)
            }
        }
        let thread = Thread { [self] in deliver() }
        thread.name = "impairment-relay"
        thread.start()
    }

    /// Stops forwarding (datagrams still in flight are dropped), closes the capture and
    /// returns what the relay did in each direction, indexed by ``RelayDirection/rawValue``.
    /// Idempotent.
    /// - Throws: the capture file's write error.
    func stop() throws -> [RelayCounts] {
        eventLoop.shutdown()
        let (counts, wasStopping) = condition.withLock {
            defer {
                state.stopping = true
                condition.signal()
            }
            return (state.counts, state.stopping)
        }
        if !wasStopping { finished.wait() }
        try capture?.finish()
        return counts
    }

    /// The I/O thread's part: decide the datagram's fate and schedule its copies.
    private func arrived(_ datagram: ReceivedDatagram, going direction: RelayDirection) {
        guard !datagram.isTruncated else { return }
        let bytes = UnsafeRawBufferPointer(datagram.bytes)
        let traffic = RelayTraffic(classifying: bytes)
        // Delivery is scheduled on the monotonic clock; the kernel's stamp (wall clock) only
        // says how long ago the datagram arrived.
        let wallNow = Self.wall.nanoseconds()
        let age = datagram.arrivalNanoseconds != 0 ? max(0, wallNow &- datagram.arrivalNanoseconds) : 0
        let arrival = Self.monotonic.nanoseconds() &- age
        let copy = Array(bytes)
        condition.withLock {
            guard !state.stopping else { return }
            let fate = state.impairment.next(traffic, direction)
            state.counts[direction.rawValue].record(traffic, fate: fate)
            if traffic == .rtp, let packet = try? RTPPacket(bytes) {
                state.counts[direction.rawValue].sending.record(packet, arrivalNanoseconds: arrival, clockRate: rtpClockRate)
            }
            for delay in fate {
                let due = arrival &+ Int64((delay * 1_000_000).rounded())
                let datagram = Datagram(bytes: copy, direction: direction, traffic: traffic, dueNanoseconds: due)
                state.heap.schedule(datagram, dueNanoseconds: due)
            }
            condition.signal()
        }
    }

    /// The delivery thread: sleeps until the earliest datagram is due, then sends all that are.
    private func deliver() {
        defer { finished.signal() }
        var due: [Datagram] = []
        while true {
            condition.lock()
            while !state.stopping {
                let now = Self.monotonic.nanoseconds()
                while let datagram = state.heap.popDue(atOrBefore: now) {
                    if datagram.traffic == .rtp {
                        state.counts[datagram.direction.rawValue].recordDelivery(lateNanoseconds: now &- datagram.dueNanoseconds)
                    }
                    due.append(datagram)
                }
                guard due.isEmpty else { break }
                if let next = state.heap.nextDueNanoseconds {
                    _ = condition.wait(until: Date().addingTimeInterval(Double(next &- now) / 1e9))
                } else {
                    condition.wait()
                }
            }
            let stopping = state.stopping
            condition.unlock()
            if stopping { return }
            for datagram in due { send(datagram) }
            due.removeAll(keepingCapacity: true)
        }
    }

    private func send(_ datagram: Datagram) {
        let socket = sockets[datagram.direction.rawValue]
        let destination = destinations[datagram.direction.rawValue]
        datagram.bytes.withUnsafeBytes { bytes in
            _ = try? socket.send(bytes, to: destination)
            capture?.record(bytes, from: socket.localAddress, to: destination, atNanoseconds: Self.wall.nanoseconds())
        }
    }

    /// The clock deliveries are scheduled on.
    private static let monotonic = SystemMonotonicClock()
    /// The clock of kernel receive stamps and of the capture's records.
    private static let wall = SystemWallClock()
}

extension RelayCounts {
    /// Counts an RTP copy that left `lateNanoseconds` after it was due.
    fileprivate mutating func recordDelivery(lateNanoseconds: Int64) {
        let milliseconds = Double(max(lateNanoseconds, 0)) / 1e6
        rtpLatestDeliveryMilliseconds = max(rtpLatestDeliveryMilliseconds, milliseconds)
        if milliseconds >= Self.lateDeliveryMilliseconds { rtpLateDeliveries += 1 }
    }

    /// Counts one datagram of `traffic` whose fate is `fate`.
    fileprivate mutating func record(_ traffic: RelayTraffic, fate: PacketFates.Fate) {
        switch traffic {
        case .rtp:
            rtpReceived += 1
            rtpDelivered += fate.count
            if fate.isEmpty { rtpDropped += 1 }
            rtpFastestDelayMilliseconds = min(rtpFastestDelayMilliseconds, fate.min() ?? .infinity)
        case .rtcp:
            rtcpReceived += 1
            rtcpDelivered += fate.count
            if fate.isEmpty { rtcpDropped += 1 }
        }
    }
}
