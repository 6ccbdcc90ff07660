import Foundation
import RTP

/// Bytes from a hexadecimal string (spaces ignored); traps on malformed test input.
func hexBytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.filter { !$0.isWhitespace })
    precondition(digits.count % 2 == 0, "odd hex string in a test")
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
}

/// Lowercase hexadecimal of `bytes`.
func hexString<C: Collection<UInt8>>(_ bytes: C) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// The bytes of a raw view, copied into an array.
func array(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
    Array(bytes)
}

/// Runs a builder over a zeroed buffer of `capacity` bytes and returns what it wrote.
func build(capacity: Int = 1500, _ body: (UnsafeMutableRawBufferPointer) throws -> Int) throws -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: capacity)
    let length = try buffer.withUnsafeMutableBytes { try body($0) }
    return Array(buffer[..<length])
}

/// Parses `bytes` as an RTP packet and hands the view to `body` while the bytes are alive.
func withPacket<R>(_ bytes: [UInt8], _ body: (RTPPacket) throws -> R) throws -> R {
    try bytes.withUnsafeBytes { raw in try body(try RTPPacket(raw)) }
}

/// The RTPError that `body` throws, or nil when it throws nothing (any other error is returned
/// as nil too, so an expectation on the result fails).
func rtpError(_ body: () throws -> Void) -> RTPError? {
    do {
        try body()
        return nil
    } catch {
        return error as? RTPError
    }
}

/// Parses an RTCP compound and collects its packets through `transform` while the bytes are alive.
func withCompound<R>(_ bytes: [UInt8], _ transform: (RTCPPacket) throws -> R) throws -> [R] {
    try bytes.withUnsafeBytes { raw in try RTCPCompoundPacket(raw).map(transform) }
}
