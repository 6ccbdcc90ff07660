internal import CNetShims
import Foundation

/// Starts the engine's threads under names the system shows (`/proc/PID/task/*/comm`, `top -H`,
/// gdb): `media-io`, `media-audio`. Foundation's `Thread.name` alone does not
/// reach the kernel on Linux.
enum MediaThread {
    /// Runs `body` on a new thread named `name` (at most 15 characters), with `qualityOfService`.
    static func start(named name: String, qualityOfService: QualityOfService = .default, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            _ = mb_set_thread_name(name)
            body()
        }
        thread.name = name
        thread.qualityOfService = qualityOfService
        thread.start()
    }
}
