/// Why a WAV file could not be read or written. Each case says what was wrong and where.
public enum WAVError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file ends before something it declares: `what` at byte `offset` needs `needed`
    /// bytes, only `available` remain.
    case truncated(what: String, offset: Int, needed: Int, available: Int)
    /// The file is not a RIFF/WAVE file.
    case notWAVE(String)
    /// The audio is in an encoding this reader does not take (float, A-law, µ-law, 8/24/32-bit,
    /// more than two channels, compressed formats).
    case unsupportedEncoding(String)
    /// The `fmt ` chunk contradicts itself (zero channels or rate, wrong block alignment, …).
    case invalidFormat(String)
    /// A chunk the file needs is missing.
    case missingChunk(String)
    /// The `data` chunk declares more bytes than the file holds after it.
    case dataChunkBeyondEnd(offset: Int, declaredBytes: Int, availableBytes: Int)
    /// The audio is too long for a RIFF file, whose sizes are 32-bit: `bytes` of samples.
    case tooLarge(bytes: Int)
    /// The file could not be read or written.
    case fileSystem(path: String, reason: String)

    /// A one-line account of the failure.
    public var description: String {
        switch self {
        case let .truncated(what, offset, needed, available):
            "WAV truncated: \(what) at byte \(offset) needs \(needed) bytes, \(available) remain"
        case let .notWAVE(reason):
            "not a WAV file: \(reason)"
        case let .unsupportedEncoding(encoding):
            "unsupported WAV encoding: \(encoding) (only 16-bit PCM, mono or stereo)"
        case let .invalidFormat(reason):
            "invalid WAV fmt chunk: \(reason)"
        case let .missingChunk(name):
            "WAV file has no '\(name)' chunk"
        case let .dataChunkBeyondEnd(offset, declared, available):
            "WAV data chunk at byte \(offset) declares \(declared) bytes but only \(available) follow"
        case let .tooLarge(bytes):
            "\(bytes) bytes of samples do not fit in a WAV file (at most \(UInt32.max - 36))"
        case let .fileSystem(path, reason):
            "cannot access WAV file \(path): \(reason)"
        }
    }
}
