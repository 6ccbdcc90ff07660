/// A comfort-noise payload (RFC 3389 §3): the noise level and optional reflection
/// coefficients of the spectral model, read in place. The one reading of RFC 3389 in the
/// package: the jitter buffer plays CN packets through it and the send path writes them with it.
///
/// The level byte's most significant bit is reserved: RFC 3389 §3 packs the level "into the
/// least significant bits of the noise-level byte with the most significant bit unused always
/// set to 0". So ``write(noiseLevel:reflectionCoefficients:into:)`` refuses a level above 127,
/// and parsing ignores the bit (a sender that sets it still says which level it means).
public struct ComfortNoisePayload {
    /// The noise level in −dBov (0–127).
    public let noiseLevel: UInt8
    /// The quantised reflection coefficients, one byte each (possibly none).
    public let reflectionCoefficients: UnsafeRawBufferPointer

    /// Reads a payload: one level byte (its reserved top bit ignored) and the coefficients.
    /// - Throws: ``RTPError`` when the payload is empty.
    public init(parsing bytes: UnsafeRawBufferPointer) throws(RTPError) {
        try bytes.require(1, at: 0)
        noiseLevel = bytes.uint8(at: 0) & 0x7F
        reflectionCoefficients = bytes.slice(1, bytes.count)
    }

    /// Writes a payload at the start of `buffer` and returns its length.
    public static func write(
        noiseLevel: UInt8, reflectionCoefficients: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0),
        into buffer: UnsafeMutableRawBufferPointer
    ) throws(RTPError) -> Int {
        guard noiseLevel < 128 else {
            throw RTPError(.valueOutOfRange(field: .noiseLevel, value: Int(noiseLevel)), at: 0)
        }
        var writer = ByteWriter(buffer)
        try writer.write(noiseLevel)
        try writer.write(reflectionCoefficients)
        return writer.offset
    }
}
