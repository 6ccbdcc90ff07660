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

extension WrappingSerialNumber {
    /// The 64-bit value nearest `reference` whose low bits are this number: a wire value
    /// extended against an already extended one (wrapping below 0 and above `UInt64.max`).
    @inlinable
    public func extended(near reference: UInt64) -> UInt64 {
        let distance = Self(rawValue: RawValue(truncatingIfNeeded: reference)).distance(to: self)
        return reference &+ UInt64(bitPattern: Int64(distance))
    }
}

/// Turns a stream of wrapping counters into 64-bit values that never wrap: the one unwrapper
/// of RTP sequence numbers and timestamps, used by the jitter buffer, the playout lab and the
/// rtpdump reader.
///
/// The first number (or the one given to ``reset(to:)``) extends to its raw value plus one turn
/// of the counter (2^16 for sequence numbers, 2^32 for timestamps), which leaves room below it
/// for packets reordered before it. Each later number extends to the value nearest the highest
/// so far (``WrappingSerialNumber/extended(near:)``): a counter that crosses zero keeps growing,
/// a late packet from before a wrap gets a smaller value, and the highest only moves forward.
public struct SerialNumberUnwrapper<Number: WrappingSerialNumber>: Sendable {
    /// The highest extended value so far (0 before the first number).
    @inlinable public var highest: UInt64 { highestSoFar }
    @usableFromInline var highestSoFar: UInt64 = 0
    @usableFromInline var started = false

    /// An unwrapper that has seen nothing yet.
    @inlinable
    public init() {}

    /// One turn of the counter: 2^16 for sequence numbers, 2^32 for timestamps.
    @inlinable
    static var turn: UInt64 { 1 << UInt64(Number.RawValue.bitWidth) }

    /// Starts over at `number` and returns its extended value, its raw value plus one turn.
    @inlinable
    @discardableResult
    public mutating func reset(to number: Number) -> UInt64 {
        started = true
        highestSoFar = UInt64(number.rawValue) + Self.turn
        return highestSoFar
    }

    /// The extended value of `number`; it becomes the highest when it is later. A number more
    /// than the room below the first one earlier than it extends to 0.
    @inlinable
    public mutating func unwrap(_ number: Number) -> UInt64 {
        guard started else { return reset(to: number) }
        let distance = Number(rawValue: Number.RawValue(truncatingIfNeeded: highest)).distance(to: number)
        if distance > 0 {
            highestSoFar += UInt64(distance)
            return highestSoFar
        }
        let backward = UInt64(-distance)
        return highest >= backward ? highest - backward : 0
    }
}

/// Extends 16-bit RTP sequence numbers to 64 bits.
public typealias SequenceUnwrapper = SerialNumberUnwrapper<SequenceNumber>
/// Extends 32-bit RTP timestamps to 64 bits.
public typealias TimestampUnwrapper = SerialNumberUnwrapper<RTPTimestamp>
