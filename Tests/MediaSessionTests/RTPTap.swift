import Foundation
import MediaSession

/// A UDP hop on loopback between a caller and a callee: it forwards every datagram it receives
/// to the callee's address, and records the sequence number and timestamp of each RTP packet
/// with the monotonic time it arrived, and the NTP and RTP times of each RTCP sender report
/// (read from the header bytes themselves, in plain RTP and RTCP). The caller is
/// pointed at it by rewriting the port of the callee's answer (``rewrite(answer:)``).
final class RTPTap: @unchecked Sendable {
    // @unchecked: `recorded` and `destination` are only touched under `lock`; the socket is
    // read and written by the forwarding thread only, after it is set up.
    struct Packet {
        let sequenceNumber: UInt16
        let timestamp: UInt32
        let arrivalSeconds: Double
    }

    struct SenderReport {
        let ntpSeconds: Double
        let timestamp: UInt32
        let arrivalSeconds: Double
    }

    private let socket: UDPSocket
    private let lock = NSLock()
    private var recorded: [Packet] = []
    private var reports: [SenderReport] = []
    private var destination: SocketAddress?
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)

    init() throws {
        socket = try UDPSocket(binding: .loopbackIPv4())
        Thread.detachNewThread { [self] in forward() }
    }

    /// The answer with its audio port replaced by the tap's; the tap forwards to the port it had.
    func rewrite(answer: String) -> String {
        var lines = answer.components(separatedBy: "\r\n")
        guard let index = lines.firstIndex(where: { $0.hasPrefix("m=audio ") }) else { return answer }
        var fields = lines[index].split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard let port = UInt16(fields[1]) else { return answer }
        lock.withLock { destination = .loopbackIPv4(port: port) }
        fields[1] = String(socket.localAddress.port)
        lines[index] = fields.joined(separator: " ")
        return lines.joined(separator: "\r\n")
    }

    /// The RTP packets forwarded so far, in arrival order.
    var packets: [Packet] {
        lock.withLock { recorded }
    }

    /// The RTCP sender reports forwarded so far, in arrival order.
    var senderReports: [SenderReport] {
        lock.withLock { reports }
    }

    /// Stops forwarding and waits for the thread.
    func stop() {
        lock.withLock { stopped = true }
        finished.wait()
    }

    private func forward() {
        var batch = DatagramBatch(capacity: 16)
        while !lock.withLock({ stopped }) {
            let received = (try? socket.receive(into: &batch)) ?? 0
            let now = Double(SystemMonotonicClock().nanoseconds()) / 1e9
            let target = lock.withLock { destination }
            for index in 0..<received {
                let bytes = UnsafeRawBufferPointer(batch[index].bytes)
                func word(at offset: Int) -> UInt32 {
                    UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
                }
                // RTP, or RTCP (RFC 5761: RTCP's packet types fill the second byte with 192–223),
                // whose compound starts with the sender report when the sender sent.
                if bytes.count >= 12, !(192...223).contains(bytes[1]) {
                    let packet = Packet(sequenceNumber: UInt16(bytes[2]) << 8 | UInt16(bytes[3]), timestamp: word(at: 4), arrivalSeconds: now)
                    lock.withLock { recorded.append(packet) }
                } else if bytes.count >= 28, bytes[1] == 200 {
                    let ntpSeconds = Double(word(at: 8)) + Double(word(at: 12)) / 4_294_967_296
                    let report = SenderReport(ntpSeconds: ntpSeconds, timestamp: word(at: 16), arrivalSeconds: now)
                    lock.withLock { reports.append(report) }
                }
                if let target { _ = try? socket.send(bytes, to: target) }
            }
            if received == 0 { Thread.sleep(forTimeInterval: 0.0005) }
        }
        finished.signal()
    }
}
