/// A counter that wraps around, compared the RFC 1982 way: `b` is after `a` when it lies less
/// than half the number space ahead of `a`.
///
/// RTP sequence numbers (16 bits) and timestamps (32 bits) are such counters. The ordering is
/// only meaningful for values less than half the space apart; it is not transitive over the
/// whole space, so do not sort values that span more than that. Raw values are at most 32 bits
/// wide (the distance is an `Int`).
public protocol WrappingSerialNumber: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The unsigned integer on the wire.
    associatedtype RawValue: FixedWidthInteger & UnsignedInteger & Sendable
    /// The value on the wire.
    var rawValue: RawValue { get }
    /// Wraps a value from the wire.
    init(rawValue: RawValue)
}

extension WrappingSerialNumber {
    /// The signed distance from `self` to `other`, in `-2^(n-1) ..< 2^(n-1)`: positive when
    /// `other` is later.
    @inlinable
    public func distance(to other: Self) -> Int {
        let forward = other.rawValue &- rawValue
        let half = RawValue(1) << (RawValue.bitWidth - 1)
        return forward < half ? Int(forward) : Int(forward) - 2 * Int(half)
    }

    /// The value `steps` later (earlier when negative), wrapping around.
    @inlinable
    public func advanced(by steps: Int) -> Self {
        Self(rawValue: rawValue &+ RawValue(truncatingIfNeeded: steps))
    }

    /// Whether `lhs` comes before `rhs` (less than half the space behind it).
    @inlinable
    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.distance(to: rhs) > 0
    }

    /// The raw value in decimal.
    public var description: String { String(rawValue) }
}

/// An RTP sequence number (RFC 3550 §5.1): 16 bits, wrapping.
public struct SequenceNumber: WrappingSerialNumber {
    /// The value on the wire.
    public var rawValue: UInt16

    /// Wraps a value from the wire.
    @inlinable
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// Wraps a value from the wire.
    @inlinable
    public init(_ rawValue: UInt16) {
        self.rawValue = rawValue
    }
}

/// An RTP timestamp (RFC 3550 §5.1): 32 bits in units of the payload's clock rate, wrapping.
public struct RTPTimestamp: WrappingSerialNumber {
    /// The value on the wire.
    public var rawValue: UInt32

    /// Wraps a value from the wire.
    @inlinable
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Wraps a value from the wire.
    @inlinable
    public init(_ rawValue: UInt32) {
        self.rawValue = rawValue
    }
}

/// Turns a stream of wrapping counters into 64-bit values that never wrap.
///
/// The first value unwraps to its raw value; each later one unwraps to the previous result plus
/// the wrap-aware distance, so a counter that crosses zero keeps growing and a late packet from
/// before a wrap gets a smaller value (negative if it precedes the first value seen).
public struct SerialNumberUnwrapper<Number: WrappingSerialNumber>: Sendable {
    @usableFromInline var last: (number: Number, unwrapped: Int64)?

    /// An unwrapper that has seen nothing yet.
    @inlinable
    public init() {}

    /// The extended value of `number`; it becomes the reference for the next call when it is
    /// later than the current one.
    @inlinable
    public mutating func unwrap(_ number: Number) -> Int64 {
        guard let last else {
            let value = Int64(number.rawValue)
            self.last = (number, value)
            return value
        }
        let distance = last.number.distance(to: number)
        let value = last.unwrapped + Int64(distance)
        if distance > 0 { self.last = (number, value) }
        return value
    }
}

/// Extends 16-bit RTP sequence numbers to 64 bits.
public typealias SequenceUnwrapper = SerialNumberUnwrapper<SequenceNumber>
/// Extends 32-bit RTP timestamps to 64 bits.
public typealias TimestampUnwrapper = SerialNumberUnwrapper<RTPTimestamp>
