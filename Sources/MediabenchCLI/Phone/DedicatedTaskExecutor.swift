import Dispatch

/// A task executor of its own (a serial dispatch queue): `phone` runs its calls here while
/// the thread that called it waits, so a caller that is itself a thread of the cooperative
/// pool (a test) never leaves the call without a thread to run on. Tasks started inside
/// inherit it; none of them blocks.
final class DedicatedTaskExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: the queue is thread-safe and never replaced.
    private let queue: DispatchQueue

    /// An executor on a new serial queue named `label`.
    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
