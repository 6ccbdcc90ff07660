import Foundation
import RTP
import TestSupport

/// Hex text to octets for vectors and Python's answers (the other way is `hexString`).
extension Array where Element == UInt8 {
    /// The octets of a hex string (white space ignored), or `nil` when it is not hex, so that a
    /// malformed answer fails its test instead of trapping like `hexBytes`.
    init?(hex: some StringProtocol) {
        let digits = String(hex.filter { !$0.isWhitespace })
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            guard let byte = UInt8(digits[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self = bytes
    }
}

/// One section of a vector file: `name: value` lines after a `[section]` header (or before any).
struct SRTPVectorSection {
    let name: String
    var values: [String: String] = [:]

    /// The value of `key` as octets; fails the test when missing or not hex.
    func bytes(_ key: String) throws -> [UInt8] {
        guard let text = values[key], let bytes = [UInt8](hex: text) else {
            throw VectorFileError(description: "no hex value '\(key)' in section '\(name)'")
        }
        return bytes
    }
}

struct VectorFileError: Error, CustomStringConvertible {
    let description: String
}

/// Reads a vector file of `Tests/Fixtures/vectors/srtp`: `#` comments, `[section]` headers and
/// `name: value` lines. The first section, named "", holds what comes before any header.
func srtpVectorSections(_ file: String) throws -> [SRTPVectorSection] {
    var sections = [SRTPVectorSection(name: "")]
    for line in try Fixtures.vectorLines("srtp/" + file) where !line.hasPrefix("#") {
        if line.hasPrefix("[") {
            sections.append(SRTPVectorSection(name: String(line.dropFirst().dropLast())))
        } else if let colon = line.firstIndex(of: ":") {
            let key = line[..<colon].trimmingCharacters(in: .whitespaces)
            sections[sections.count - 1].values[key] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
    }
    return sections
}

/// Runs a Python `script` with `input` in a temporary file whose path is its first argument,
/// and returns its standard output.
func runPython(_ script: String, input: String) throws -> String {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("srtp-\(UUID().uuidString).txt")
    try input.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    return try ExternalTool.run(["python3", "-c", script, file.path]).standardOutput
}

/// A buffer outcome of one transform: the resulting packet, or the error.
typealias SRTPOutcome = Result<[UInt8], SRTPError>

extension SRTPOutboundSession {
    /// Protects a copy of `packet` (RTP or RTCP) in a buffer with room for the overhead and an
    /// MKI of up to `mkiLength` octets.
    mutating func protect(_ packet: [UInt8], rtcp: Bool = false, mkiLength: Int = 0) -> SRTPOutcome {
        var buffer = packet + [UInt8](repeating: 0, count: (rtcp ? suite.rtcpOverhead : suite.rtpOverhead) + mkiLength)
        let result: Result<Int, SRTPError> = buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(SRTPError) in
                rtcp ? try protectRTCP(in: bytes, length: packet.count) : try protectRTP(in: bytes, length: packet.count)
            }
        }
        return result.map { Array(buffer[..<$0]) }
    }
}

extension SRTPInboundSession {
    /// Unprotects a copy of `packet` (SRTP or SRTCP).
    mutating func unprotect(_ packet: [UInt8], rtcp: Bool = false) -> SRTPOutcome {
        var buffer = packet
        let result: Result<Int, SRTPError> = buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(SRTPError) in
                rtcp ? try unprotectRTCP(in: bytes, length: packet.count) : try unprotectRTP(in: bytes, length: packet.count)
            }
        }
        return result.map { Array(buffer[..<$0]) }
    }
}

/// Test packets: an RTP packet with a 12-octet header and an RTCP receiver report.
enum SRTPTestPackets {
    /// An RTP packet of SSRC `ssrc`, sequence `sequence`, carrying `payloadLength` octets that
    /// vary with the sequence number.
    static func rtp(sequence: UInt16, ssrc: UInt32 = 0x1234_5678, payloadLength: Int = 160) -> [UInt8] {
        let timestamp = UInt32(sequence) &* 160
        var packet: [UInt8] = [0x80, 0x08, UInt8(sequence >> 8), UInt8(sequence & 0xFF)]
        packet += withUnsafeBytes(of: timestamp.bigEndian, Array.init)
        packet += withUnsafeBytes(of: ssrc.bigEndian, Array.init)
        packet += (0..<payloadLength).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(sequence)) }
        return packet
    }

    /// An RTCP receiver report with one report block, from SSRC `ssrc`.
    static func rtcp(ssrc: UInt32 = 0x1234_5678, marker: UInt8 = 0) -> [UInt8] {
        var packet: [UInt8] = [0x81, 201, 0x00, 0x07]
        packet += withUnsafeBytes(of: ssrc.bigEndian, Array.init)
        packet += [0xCA, 0xFE, 0xBA, 0xBE, 0x05, 0x00, 0x00, 0x10, 0x00, 0x00, 0x12, 0x34]
        packet += [0x00, 0x00, 0x00, 0x20, 0x11, 0x22, 0x33, 0x44, 0x00, 0x00, 0x10, marker]
        return packet
    }
}
