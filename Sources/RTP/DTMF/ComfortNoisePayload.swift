/// A comfort-noise payload (RFC 3389 §3): the noise level and optional reflection
/// coefficients of the spectral model, read in place.
public struct ComfortNoisePayload {
    /// The noise level in −dBov (0–127).
    public let noiseLevel: UInt8
    /// The quantised reflection coefficients, one byte each (possibly none).
    public let reflectionCoefficients: UnsafeRawBufferPointer

    /// Reads a payload: one level byte (most significant bit clear) and the coefficients.
    public init(parsing bytes: UnsafeRawBufferPointer) throws(RTPError) {
        try bytes.require(1, at: 0)
        let level = bytes.uint8(at: 0)
        guard level < 128 else { throw RTPError(.valueOutOfRange(field: .noiseLevel, value: Int(level)), at: 0) }
        noiseLevel = level
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
