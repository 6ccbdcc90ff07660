/// A set of RTP payload types (0–127) as a 128-bit mask, held inline: asked once per received
/// packet without allocating or reaching into an array's storage (a cold cache line for a
/// server leg).
package struct PayloadTypeSet: Sendable, Equatable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    /// The set of `payloadTypes`; numbers outside 0–127 are ignored.
    package init(_ payloadTypes: some Sequence<Int>) {
        for payloadType in payloadTypes where (0...127).contains(payloadType) {
            if payloadType < 64 { low |= 1 << UInt64(payloadType) } else { high |= 1 << UInt64(payloadType - 64) }
        }
    }

    /// Whether `payloadType` is in the set.
    package func contains(_ payloadType: UInt8) -> Bool {
        payloadType < 64 ? low & (1 << UInt64(payloadType)) != 0 : payloadType < 128 && high & (1 << UInt64(payloadType - 64)) != 0
    }
}
