import Foundation

/// A small network trace (DESIGN.md "Network trace CSV") of 20 ms G.711 frames at 8 kHz,
/// written to a temporary file for the jitter peers to replay.
struct SyntheticTrace: ~Copyable {
    /// One sent packet: its unwrapped numbers, when it left and when it arrived (nil: lost).
    struct Row {
        let seq: Int64
        let rtpTimestamp: Int64
        let sendMilliseconds: Double
        let arrivalMilliseconds: Double?
    }

    static let frameMilliseconds = 20.0
    static let clockRate = 8000

    let rows: [Row]
    let file: URL

    /// `count` packets sent every 20 ms from t = 1000 ms, each arriving `delay(index)` ms later
    /// (nil: lost), numbered from `firstSeq` and `firstTimestamp`.
    init(
        count: Int,
        firstSeq: Int64 = 0,
        firstTimestamp: Int64 = 0,
        delay: (Int) -> Double?
    ) throws {
        rows = (0..<count).map { index in
            let send = 1000 + Double(index) * Self.frameMilliseconds
            return Row(
                seq: firstSeq + Int64(index),
                rtpTimestamp: firstTimestamp + Int64(index) * 160,
                sendMilliseconds: send,
                arrivalMilliseconds: delay(index).map { send + $0 })
        }
        var text = "seq,rtp_ts,send_ms,arrival_ms,payload_bytes\n"
        for row in rows {
            let arrival = row.arrivalMilliseconds.map { String(format: "%.3f", $0) } ?? ""
            text += "\(row.seq),\(row.rtpTimestamp),\(String(format: "%.3f", row.sendMilliseconds)),\(arrival),160\n"
        }
        file = FileManager.default.temporaryDirectory.appendingPathComponent("jitter-trace-\(UUID().uuidString).csv")
        try text.write(to: file, atomically: true, encoding: .utf8)
    }

    /// The sequence numbers of the packets that arrive, in seq order.
    var arrivedSequences: [Int64] { rows.filter { $0.arrivalMilliseconds != nil }.map(\.seq) }

    /// When the packet with unwrapped sequence number `seq` arrived.
    func arrival(of seq: Int64) -> Double? {
        rows.first { $0.seq == seq }?.arrivalMilliseconds
    }

    deinit {
        try? FileManager.default.removeItem(at: file)
    }
}
