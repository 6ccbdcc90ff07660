import Dispatch
import Foundation
import Locking

/// Replays streams through their jitter buffers on worker threads while the reading thread
/// goes on with the capture. Each stream's listener belongs to one lane (handed out in turn as
/// listeners are made), a queue of batches of commands in the order they were read; a lane's
/// batches run one at a time and in order, so a stream sees exactly the calls it would see on
/// the reading thread, and its figures (and WAV file) are the same whatever the number of
/// threads or how they run.
///
/// There are more lanes than threads (``lanesPerThread``), and a lane belongs to no thread:
/// a worker runs the next batch of any lane that has one and that no other thread is running
/// (its own lanes first, for the cache), and the reading thread, when the lane it fills has no
/// free slot, runs batches itself instead of waiting. No core therefore waits while a batch is
/// ready, whichever thread the scheduler let fall behind (with one lane per thread, a worker
/// sharing its core with the reading thread held the reading thread back, and the other
/// worker's core went idle).
///
/// A lane runs a batch stream by stream: each stream's commands in the order they came, one
/// stream after another (in the order of their first command in the batch), so that a
/// stream's replay state stays in the core's cache over its run of commands instead of being
/// fetched again for every packet of a capture whose streams interleave. The streams are
/// independent, so that changes nothing a stream sees.
///
/// Packets travel in batches (their payloads copied), a lane holding at most
/// ``slotsPerLane`` of them, so memory stays fixed whatever the capture's length.
/// ``drain()`` returns once every lane has run all it was given; the workers end when this
/// object does.
///
/// The listeners are held here, from their lane's assignment until the lanes end, so that a
/// queued command refers to its listener without a reference count to move per packet.
final class ReplayLanes {
    /// Commands per batch.
    static let batchCapacity = 512
    /// Batches a lane holds at once (filled, running or being filled).
    static let slotsPerLane = 4
    /// Lanes per replaying thread (the workers and the reading thread).
    static let lanesPerThread = 4

    private let scheduler: ReplayScheduler
    private var nextLane = 0
    /// Every listener given a lane, kept alive until the lanes have run their last command.
    private var listeners: [StreamListener] = []

    /// `workers` threads (at least one) besides the reading thread.
    init(workers: Int) {
        let workers = max(workers, 1)
        scheduler = ReplayScheduler(lanes: (workers + 1) * Self.lanesPerThread, workers: workers)
        for worker in 0..<workers {
            let scheduler = scheduler
            Thread.detachNewThread { scheduler.work(as: worker) }
        }
    }

    deinit {
        scheduler.drain()
        scheduler.stop()
    }

    /// The lane of `listener`, made now: in turn. The lanes hold it from now on.
    func assignLane(to listener: StreamListener) -> Int {
        listeners.append(listener)
        defer { nextLane = (nextLane + 1) % scheduler.lanes.count }
        return nextLane
    }

    /// Queues `packet` (its payload copied) for `listener` on its lane (``assignLane(to:)``).
    func receive(_ packet: RTPPacketSummary, payload: UnsafeRawBufferPointer?, by listener: Unmanaged<StreamListener>, lane: Int) {
        scheduler.append(to: lane) { $0.appendReceive(packet, payload: payload, by: listener) }
    }

    /// Queues the end of `listener`'s replay on its lane (``assignLane(to:)``).
    func finish(_ listener: Unmanaged<StreamListener>, lane: Int) {
        scheduler.append(to: lane) { $0.appendFinish(listener) }
    }

    /// Returns once every lane has run everything queued so far.
    func drain() {
        scheduler.drain()
    }
}

/// The lanes of ``ReplayLanes`` and the threads that run them. Each lane is a ring of batch
/// slots: the reading thread (the only producer) fills the slot at its write index and hands
/// it over; whichever thread runs the lane takes the slot at its read index. Who may run what
/// is decided under one lock, once per batch.
private final class ReplayScheduler: @unchecked Sendable {
    // @unchecked: a slot is touched by one thread at a time, handed over under `state`'s lock
    // (queued by the producer, taken by one runner, given back by it), which orders the
    // memory; `ReplayLane.writeIndex`/`isOpen` belong to the producer, and a lane's
    // `readIndex`/`runs` to the one thread running the lane, taken and given back under the lock.
    let lanes: [ReplayLane]
    /// The same lanes, unretained (``lanes`` holds them): the per-packet ``append(to:_:)``
    /// reaches its lane without a reference count to move.
    private let unretainedLanes: [Unmanaged<ReplayLane>]
    private let workers: Int
    private let state: PThreadLock<State>
    /// Signalled once per worker woken for new work (``State/sleepingWorkers``).
    private let work = DispatchSemaphore(value: 0)
    /// Signalled when a batch ends while the reading thread waits (``State/producerWaits``).
    private let batchEnded = DispatchSemaphore(value: 0)
    /// Signalled by each worker as it ends.
    private let exited = DispatchSemaphore(value: 0)

    private struct State {
        /// Per lane: batches handed over and not yet run to their end (the running one included).
        var queued: [Int]
        /// Per lane: whether a thread is running its oldest batch.
        var running: [Bool]
        var sleepingWorkers = 0
        var producerWaits = false
        var stopping = false

        /// The lane to run next: of those with a batch waiting that no thread runs, the one
        /// with most waiting, `preferred` ones first; `nil` when there is none.
        func runnable(preferring preferred: (Int) -> Bool) -> Int? {
            var best: Int?
            var bestScore = 0
            for lane in queued.indices where queued[lane] > 0 && !running[lane] {
                let score = queued[lane] + (preferred(lane) ? ReplayLanes.slotsPerLane : 0)
                if score > bestScore {
                    best = lane
                    bestScore = score
                }
            }
            return best
        }
    }

    init(lanes count: Int, workers: Int) {
        lanes = (0..<count).map { _ in ReplayLane() }
        unretainedLanes = lanes.map { .passUnretained($0) }
        self.workers = workers
        state = PThreadLock(State(queued: Array(repeating: 0, count: count), running: Array(repeating: false, count: count)))
    }

    /// Adds one command to the slot of `lane` being filled (taking a free slot first), and
    /// hands the slot over when it is full.
    func append(to lane: Int, _ add: (inout ReplayBatch) -> Void) {
        let full = unretainedLanes[lane]._withUnsafeGuaranteedRef { target in
            if !target.isOpen {
                waitForFreeSlot(in: lane)
                target.isOpen = true
            }
            return target.slots[target.writeIndex]._withUnsafeGuaranteedRef { slot in
                add(&slot.batch)
                return slot.batch.count >= ReplayLanes.batchCapacity
            }
        }
        if full { submit(lane) }
    }

    /// Hands the slot of `lane` being filled, if any, to the runners.
    private func submit(_ lane: Int) {
        let target = lanes[lane]
        guard target.isOpen else { return }
        target.isOpen = false
        target.writeIndex = (target.writeIndex + 1) % ReplayLanes.slotsPerLane
        let wakes = state.withLock { state in
            state.queued[lane] += 1
            guard state.sleepingWorkers > 0, !state.running[lane] else { return false }
            state.sleepingWorkers -= 1
            return true
        }
        if wakes { work.signal() }
    }

    /// Returns once `lane` has a free slot, running other batches (its own first) meanwhile.
    private func waitForFreeSlot(in lane: Int) {
        // The slot being filled is not queued: a lane has one free while fewer are queued.
        runBatches(preferring: lane) { $0.queued[lane] < ReplayLanes.slotsPerLane }
    }

    /// Hands over every slot being filled and returns once every lane has run all it holds.
    func drain() {
        for lane in lanes.indices { submit(lane) }
        runBatches(preferring: nil) { state in !state.queued.contains { $0 > 0 } }
    }

    /// On the reading thread: runs batches (those of `preferred` first) until `done` holds,
    /// waiting only when no batch is ready to run.
    private func runBatches(preferring preferred: Int?, until done: (State) -> Bool) {
        while true {
            enum Step { case finished, run(Int), wait }
            let step = state.withLock { state -> Step in
                if done(state) { return .finished }
                if let lane = state.runnable(preferring: { $0 == preferred }) {
                    state.running[lane] = true
                    return .run(lane)
                }
                state.producerWaits = true
                return .wait
            }
            switch step {
            case .finished: return
            case .run(let lane): runBatch(of: lane)
            case .wait: batchEnded.wait()
            }
        }
    }

    /// A worker's loop: runs ready batches, its own lanes' first, until ``stop()``.
    func work(as worker: Int) {
        let workers = workers
        while true {
            let lane = state.withLock { state -> Int? in
                if let lane = state.runnable(preferring: { $0 % workers == worker }) {
                    state.running[lane] = true
                    return lane
                }
                if state.stopping { return nil }
                state.sleepingWorkers += 1
                return -1
            }
            guard let lane else { break }
            if lane < 0 {
                work.wait()
            } else {
                runBatch(of: lane)
            }
        }
        exited.signal()
    }

    /// Runs the oldest batch of `lane` (marked running by the caller) and gives its slot back.
    private func runBatch(of lane: Int) {
        let target = lanes[lane]
        target.runs += 1
        target.slots[target.readIndex]._withUnsafeGuaranteedRef { $0.batch.run(stamp: target.runs) }
        target.readIndex = (target.readIndex + 1) % ReplayLanes.slotsPerLane
        let (wakesWorker, wakesProducer) = state.withLock { state in
            state.running[lane] = false
            state.queued[lane] -= 1
            let wakesWorker = state.queued[lane] > 0 && state.sleepingWorkers > 0
            if wakesWorker { state.sleepingWorkers -= 1 }
            defer { state.producerWaits = false }
            return (wakesWorker, state.producerWaits)
        }
        if wakesWorker { work.signal() }
        if wakesProducer { batchEnded.signal() }
    }

    /// Ends the workers (after ``drain()``) and waits for them.
    func stop() {
        let sleeping = state.withLock { state in
            state.stopping = true
            defer { state.sleepingWorkers = 0 }
            return state.sleepingWorkers
        }
        for _ in 0..<sleeping { work.signal() }
        for _ in 0..<workers { exited.wait() }
    }
}

/// One lane of ``ReplayLanes``: its ring of batch slots and the indexes into it.
private final class ReplayLane {
    /// Unretained, so that a command reaches its slot without a reference count to move:
    /// ``owned`` holds them.
    let slots: [Unmanaged<ReplaySlot>]
    private let owned: [ReplaySlot]
    /// The producer's: the slot being filled or filled next, and whether it is being filled.
    @exclusivity(unchecked) var writeIndex = 0
    @exclusivity(unchecked) var isOpen = false
    /// The running thread's: the oldest slot queued, and the batches run so far (each run's
    /// stamp for grouping its commands, ``ReplayBatch/run(stamp:)``).
    @exclusivity(unchecked) var readIndex = 0
    @exclusivity(unchecked) var runs = 0

    init() {
        owned = (0..<ReplayLanes.slotsPerLane).map { _ in ReplaySlot() }
        slots = owned.map { .passUnretained($0) }
    }
}

/// A batch's storage, reused for the lane's whole life. Its batch is touched by one thread at
/// a time, handed over under the scheduler's lock: no run-time exclusivity check per command.
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
