import Foundation

/// `dumpcap` recording UDP on the loopback into a pcap file while a call runs.
final class LoopbackCapture {
    private let process = Process()

    /// Starts dumpcap writing to `path`.
    init(path: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dumpcap")
        process.arguments = ["-q", "-i", "lo", "-f", "udp", "-F", "pcap", "-w", path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw CommandFailure("--capture: cannot start dumpcap (apt package tshark): \(error)")
        }
        // dumpcap needs a moment to open the interface before the first packet.
        Thread.sleep(forTimeInterval: 0.5)
    }

    /// Stops dumpcap (SIGINT makes it flush and close the file) and waits at most 3 s.
    func stop() {
        guard process.isRunning else { return }
        process.interrupt()
        let deadline = ContinuousClock.now.advanced(by: .seconds(3))
        while process.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate() }
    }
}
