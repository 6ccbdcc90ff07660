import Dispatch
import Foundation

/// Replays streams through their jitter buffers on worker threads while the reading thread
/// goes on with the capture: each stream's listener belongs to one lane (handed out in turn as
/// listeners are made), and a lane's thread runs its streams' packets in the order they were
/// read. A stream therefore sees exactly the calls it would see on the reading thread, and its
/// figures (and WAV file) are the same, whatever the number of lanes or how the threads run.
///
/// A lane runs a batch stream by stream: each stream's commands in the order they came, one
/// stream after another (in the order of their first command in the batch), so that a
/// stream's replay state stays in the core's cache over its run of commands instead of being
/// fetched again for every packet of a capture whose streams interleave. The streams are
/// independent, so that changes nothing a stream sees.
///
/// Packets travel in batches (their payloads copied), a lane holding at most
/// ``slotsPerLane`` of them: when a lane falls behind, the reading thread waits, so memory
/// stays fixed whatever the capture's length. ``drain()`` waits until every lane has run all
/// it was given; the lanes' threads end when this object does.
///
/// The listeners are held here, from their lane's assignment until the lanes end, so that a
/// queued command refers to its listener without a reference count to move per packet.
final class ReplayLanes {
    /// Commands per batch.
    static let batchCapacity = 512
    /// Batches a lane holds at once (filled, running or being filled).
    static let slotsPerLane = 4

    private let lanes: [ReplayLane]
    private var nextLane = 0
    /// Every listener given a lane, kept alive until the lanes have run their last command.
    private var listeners: [StreamListener] = []

    /// `threads` lanes (at least one), each with its own thread.
    init(threads: Int) {
        lanes = (0..<max(threads, 1)).map { _ in ReplayLane() }
        for lane in lanes { Thread.detachNewThread { lane.run() } }
    }

    deinit {
        for lane in lanes { lane.stop() }
    }

    /// The lane of `listener`, made now: in turn. The lanes hold it from now on.
    func assignLane(to listener: StreamListener) -> Int {
        listeners.append(listener)
        defer { nextLane = (nextLane + 1) % lanes.count }
        return nextLane
    }

    /// Queues `packet` (its payload copied) for `listener` on its lane (``assignLane(to:)``).
    func receive(_ packet: RTPPacketSummary, payload: UnsafeRawBufferPointer?, by listener: Unmanaged<StreamListener>, lane: Int) {
        lanes[lane].append { $0.appendReceive(packet, payload: payload, by: listener) }
    }

    /// Queues the end of `listener`'s replay on its lane (``assignLane(to:)``).
    func finish(_ listener: Unmanaged<StreamListener>, lane: Int) {
        lanes[lane].append { $0.appendFinish(listener) }
    }

    /// Returns once every lane has run everything queued so far.
    func drain() {
        for lane in lanes { lane.submit() }
        for lane in lanes { lane.waitUntilIdle() }
    }
}

/// One lane of ``ReplayLanes``: a ring of batch slots between the reading thread (the only
/// producer) and the lane's thread (the only consumer), handed over by two semaphores.
private final class ReplayLane: @unchecked Sendable {
    // @unchecked: a slot is touched by one side at a time, the semaphores (`free` before the
    // producer fills it, `filled` before the consumer runs it) hand it over and order the
    // memory; `writeIndex`/`isOpen` belong to the producer and `readIndex` to the consumer.
    private let slots = (0..<ReplayLanes.slotsPerLane).map { _ in ReplaySlot() }
    private let free = DispatchSemaphore(value: ReplayLanes.slotsPerLane)
    private let filled = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)
    @exclusivity(unchecked) private var writeIndex = 0
    @exclusivity(unchecked) private var isOpen = false
    @exclusivity(unchecked) private var readIndex = 0
    /// Batches run so far: each run's stamp for grouping its commands (``ReplayBatch/run(stamp:)``).
    @exclusivity(unchecked) private var runs = 0

    /// Adds one command to the slot being filled (taking a free slot first), and hands the
    /// slot over when it is full.
    func append(_ add: (inout ReplayBatch) -> Void) {
        if !isOpen {
            free.wait()
            isOpen = true
        }
        add(&slots[writeIndex].batch)
        if slots[writeIndex].batch.count >= ReplayLanes.batchCapacity { submit() }
    }

    /// Hands the slot being filled, if any, to the lane's thread.
    func submit() {
        guard isOpen else { return }
        isOpen = false
        writeIndex = (writeIndex + 1) % slots.count
        filled.signal()
    }

    /// Waits until the lane's thread has run every slot handed over (call after ``submit()``).
    func waitUntilIdle() {
        for _ in slots { free.wait() }
        for _ in slots { free.signal() }
    }

    /// Runs what is handed over until the last batch; then tells ``stop()``.
    func run() {
        while true {
            filled.wait()
            let slot = slots[readIndex]
            readIndex = (readIndex + 1) % slots.count
            let isLast = slot.batch.isLast
            runs += 1
            slot.batch.run(stamp: runs)
            free.signal()
            if isLast { break }
        }
        exited.signal()
    }

    /// Runs everything queued, then ends the lane's thread and waits for it.
    func stop() {
        append { $0.isLast = true }
        submit()
        exited.wait()
    }
}

/// A batch's storage, reused for the lane's whole life. Its batch is touched by one thread at
/// a time, handed over by the lane's semaphores: no run-time exclusivity check per command.
private final class ReplaySlot {
    @exclusivity(unchecked) var batch = ReplayBatch()
}

/// Replay commands and the payload bytes they refer to; running them empties the batch and
/// keeps its capacity, so a lane allocates nothing once its batches have grown. A command's
/// listener is not retained: ``ReplayLanes`` holds every listener while its lanes run.
private struct ReplayBatch {
    private enum Command {
        /// A packet and where its payload lies in `bytes` (`count` −1: no payload).
        case receive(Unmanaged<StreamListener>, RTPPacketSummary, start: Int, count: Int)
        case finish(Unmanaged<StreamListener>)
    }

    private var commands: [Command] = []
    private var bytes: [UInt8] = []
    /// While running: after each command, the index of its listener's next one (−1: none).
    private var nextOfListener: [Int] = []
    /// While running: each listener's first and last command, in the order of their first.
    private var groups: [(first: Int, last: Int)] = []
    /// Whether the lane's thread ends after this batch.
    var isLast = false
    /// A sum of the bytes read by ``warmPayloads()``, stored so that the reads are made.
    private var warmedSum: UInt8 = 0

    init() {
        commands.reserveCapacity(ReplayLanes.batchCapacity)
        bytes.reserveCapacity(ReplayLanes.batchCapacity * 256)
        nextOfListener.reserveCapacity(ReplayLanes.batchCapacity)
        groups.reserveCapacity(ReplayLanes.batchCapacity)
    }

    var count: Int { commands.count }

    mutating func appendReceive(_ packet: RTPPacketSummary, payload: UnsafeRawBufferPointer?, by listener: Unmanaged<StreamListener>) {
        let start = bytes.count
        if let payload { bytes.append(contentsOf: payload) }
        commands.append(.receive(listener, packet, start: start, count: payload?.count ?? -1))
    }

    mutating func appendFinish(_ listener: Unmanaged<StreamListener>) {
        commands.append(.finish(listener))
    }

    /// Runs the commands listener by listener (each one's in order; see ``ReplayLanes``) and
    /// empties the batch. `stamp` differs from every earlier run's on the lane.
    mutating func run(stamp: Int) {
        groupByListener(stamp: stamp)
        warmPayloads()
        bytes.withUnsafeBytes { stored in
            for group in groups {
                var index = group.first
                while index >= 0 {
                    switch commands[index] {
                    case .receive(let listener, let packet, let start, let count):
                        let payload = count < 0 ? nil : UnsafeRawBufferPointer(rebasing: stored[start..<(start + count)])
                        listener._withUnsafeGuaranteedRef { $0.receive(packet, payload: payload) }
                    case .finish(let listener):
                        listener._withUnsafeGuaranteedRef { _ = $0.finish() }
                    }
                    index = nextOfListener[index]
                }
            }
        }
        commands.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
        nextOfListener.removeAll(keepingCapacity: true)
        groups.removeAll(keepingCapacity: true)
    }

    /// Reads the payloads once in order, a byte of every cache line: the reading thread wrote
    /// them on another core, and the grouped run reads them out of order, which the hardware
    /// does not fetch ahead; read in order, they stream into this core's cache.
    private mutating func warmPayloads() {
        var sum: UInt8 = 0
        bytes.withUnsafeBytes { stored in
            for offset in stride(from: 0, to: stored.count, by: 64) { sum &+= stored[offset] }
        }
        warmedSum = sum
    }

    /// Links each command to its listener's next one and lists the listeners' groups, the
    /// listener recording its group under `stamp`.
    private mutating func groupByListener(stamp: Int) {
        for index in commands.indices {
            nextOfListener.append(-1)
            let listener =
                switch commands[index] {
                case .receive(let listener, _, _, _): listener
                case .finish(let listener): listener
                }
            listener._withUnsafeGuaranteedRef { listener in
                if listener.laneBatchStamp == stamp {
                    nextOfListener[groups[listener.laneGroup].last] = index
                    groups[listener.laneGroup].last = index
                } else {
                    listener.laneBatchStamp = stamp
                    listener.laneGroup = groups.count
                    groups.append((index, index))
                }
            }
        }
    }
}
