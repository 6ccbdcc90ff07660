/// Why a codec operation failed. Every case says what was wrong with which input.
public enum CodecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The PCM given to an encoder is not one frame long.
    case wrongFrameSize(expectedSamples: Int, actualSamples: Int)
    /// The caller's output buffer cannot hold the result.
    case outputTooSmall(requiredBytes: Int, availableBytes: Int)
    /// A payload cannot be decoded (empty, odd-sized for the codec, or corrupt).
    case invalidPayload(String)
    /// A parameter (rate, channels, frame duration, bitrate, …) is outside what the codec supports.
    case unsupportedParameter(String)
    /// A C library call failed: the function name and the library's own message.
    case library(call: String, code: Int32, message: String)

    /// A one-line account of the failure.
    public var description: String {
        switch self {
        case let .wrongFrameSize(expected, actual):
            "wrong frame size: expected \(expected) samples, got \(actual)"
        case let .outputTooSmall(required, available):
            "output buffer too small: need \(required) bytes, have \(available)"
        case let .invalidPayload(reason):
            "invalid payload: \(reason)"
        case let .unsupportedParameter(reason):
            "unsupported parameter: \(reason)"
        case let .library(call, code, message):
            "\(call) failed (\(code)): \(message)"
        }
    }
}
