/// Why a network trace CSV could not be read. Lines and columns count from 1.
public enum TraceCSVError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text has no header line.
    case empty
    /// Line 1 is not `seq,rtp_ts,send_ms,arrival_ms,payload_bytes`.
    case unexpectedHeader(found: String)
    /// A row does not have five comma-separated fields.
    case wrongFieldCount(line: Int, found: Int)
    /// A field is empty or does not hold what its column needs.
    case invalidField(line: Int, column: Int, name: String, text: String, expected: String)

    /// A one-line account naming the line and column.
    public var description: String {
        switch self {
        case .empty:
            "trace CSV is empty: expected the header \(TraceCSV.header)"
        case let .unexpectedHeader(found):
            "trace CSV line 1: expected the header \(TraceCSV.header), found \"\(found)\""
        case let .wrongFieldCount(line, found):
            "trace CSV line \(line): expected 5 fields, found \(found)"
        case let .invalidField(line, column, name, text, expected):
            "trace CSV line \(line), column \(column) (\(name)): \"\(text)\" is not \(expected)"
        }
    }
}

/// The network trace CSV of DESIGN.md: header `seq,rtp_ts,send_ms,arrival_ms,payload_bytes`,
/// one row per sent packet in send order plus one per duplicate, `arrival_ms` empty for a lost
/// packet, sequence numbers and timestamps unwrapped, times in milliseconds as decimals.
public enum TraceCSV {
    /// The header line.
    public static let header = "seq,rtp_ts,send_ms,arrival_ms,payload_bytes"

    /// The CSV text of `trace`, times written with microsecond precision.
    public static func write(_ trace: NetworkTrace) -> String {
        var text = header + "\n"
        for packet in trace.packets {
            text += "\(packet.sequenceNumber),\(packet.rtpTimestamp),"
            text += formatMilliseconds(packet.sendMilliseconds) + ","
            text += packet.arrivalMilliseconds.map(formatMilliseconds) ?? ""
            text += ",\(packet.payloadBytes)\n"
        }
        return text
    }

    /// Parses CSV text (LF or CRLF line ends; blank lines ignored).
    public static func read(_ text: String) throws(TraceCSVError) -> NetworkTrace {
        // "\r\n" is one Character in Swift, and a newline like "\n".
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated()
            .map { (number: $0.offset + 1, text: $0.element) }
            .filter { !$0.text.isEmpty }[...]
        guard let headerLine = lines.popFirst() else { throw .empty }
        guard headerLine.number == 1, headerLine.text == header else {
            throw .unexpectedHeader(found: String(headerLine.text))
        }
        var packets: [TracePacket] = []
        packets.reserveCapacity(lines.count)
        for (number, line) in lines {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 5 else { throw .wrongFieldCount(line: number, found: fields.count) }
            let row = Row(line: number, fields: fields)
            try packets.append(
                TracePacket(
                    sequenceNumber: row.unsigned(column: 1, name: "seq"),
                    rtpTimestamp: row.unsigned(column: 2, name: "rtp_ts"),
                    sendMilliseconds: row.milliseconds(column: 3, name: "send_ms"),
                    arrivalMilliseconds: fields[3].isEmpty ? nil : row.milliseconds(column: 4, name: "arrival_ms"),
                    payloadBytes: Int(row.unsigned(column: 5, name: "payload_bytes", limit: UInt64(Int32.max)))
                )
            )
        }
        return NetworkTrace(packets: packets)
    }

    /// Milliseconds with three decimals, exactly (no binary-to-decimal noise).
    static func formatMilliseconds(_ milliseconds: Double) -> String {
        let microseconds = Int64((milliseconds * 1000).rounded())
        let sign = microseconds < 0 ? "-" : ""
        let magnitude = microseconds.magnitude
        let fraction = String(magnitude % 1000)
        return sign + String(magnitude / 1000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// One data row being parsed, for error messages that name the line and column.
    private struct Row {
        let line: Int
        let fields: [Substring]

        func unsigned(column: Int, name: String, limit: UInt64 = .max) throws(TraceCSVError) -> UInt64 {
            let text = fields[column - 1]
            guard let value = UInt64(text), value <= limit else {
                throw .invalidField(
                    line: line, column: column, name: name, text: String(text),
                    expected: limit == .max ? "an unsigned integer" : "an unsigned integer up to \(limit)"
                )
            }
            return value
        }

        func milliseconds(column: Int, name: String) throws(TraceCSVError) -> Double {
            let text = fields[column - 1]
            guard text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }),
                let value = Double(text), value.isFinite
            else {
                throw .invalidField(
                    line: line, column: column, name: name, text: String(text), expected: "a decimal number of milliseconds"
                )
            }
            return value
        }
    }
}
