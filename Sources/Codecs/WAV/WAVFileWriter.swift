#if canImport(Glibc)
    @preconcurrency internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// Writes a canonical 16-bit PCM WAV file as its audio comes, in fixed memory: the header goes
/// first with placeholder sizes, ``finish()`` patches them. Audio beyond the 4 GiB a RIFF file
/// can hold is dropped, and ``finish()`` then says so.
///
/// A final class because it owns the open file, which ``finish()`` (or, failing that, `deinit`)
/// closes exactly once. One thread at a time.
public final class WAVFileWriter {
    /// The file's path.
    public let path: String
    /// The format written.
    public let format: AudioFormat
    /// Bytes of samples written so far.
    public private(set) var dataBytes = 0
    private var file: UnsafeMutablePointer<FILE>?
    private var droppedBytes = 0
    private var failure: String?
    private let scratch: UnsafeMutableBufferPointer<UInt16>

    /// The largest `data` chunk a RIFF file can describe.
    static let maximumDataBytes = Int(UInt32.max) - 36

    /// Creates (or replaces) the file at `path` for audio of `format` (mono or stereo) and
    /// writes its header.
    public init(path: String, format: AudioFormat) throws(WAVError) {
        guard (1...2).contains(format.channels) else { throw .unsupportedEncoding("\(format.channels) channels") }
        guard format.sampleRate > 0, format.sampleRate <= Int(UInt32.max) / 4 else {
            throw .invalidFormat("sample rate \(format.sampleRate)")
        }
        guard let file = fopen(path, "wb") else { throw .fileSystem(path: path, reason: Self.systemError()) }
        self.path = path
        self.format = format
        self.file = file
        scratch = .allocate(capacity: 1024)
        let header = WAVAudio.canonicalHeader(format: format, dataBytes: 0)
        guard header.withUnsafeBytes({ fwrite($0.baseAddress, 1, $0.count, file) }) == header.count else {
            let reason = Self.systemError()
            fclose(file)
            self.file = nil
            throw .fileSystem(path: path, reason: reason)
        }
    }

    deinit {
        if let file { fclose(file) }
        scratch.deallocate()
    }

    /// Appends `samples` (interleaved when stereo).
    public func write(_ samples: UnsafeBufferPointer<Int16>) {
        guard let file, failure == nil else { return }
        var index = 0
        while index < samples.count {
            let count = min(scratch.count, samples.count - index)
            guard dataBytes + 2 * count <= Self.maximumDataBytes else {
                droppedBytes += 2 * (samples.count - index)
                return
            }
            for offset in 0..<count { scratch[offset] = UInt16(bitPattern: samples[index + offset]).littleEndian }
            guard fwrite(scratch.baseAddress, 2, count, file) == count else {
                failure = Self.systemError()
                return
            }
            dataBytes += 2 * count
            index += count
        }
    }

    /// Patches the header's sizes and closes the file. Throws when a write failed or audio
    /// was dropped (the file then holds what fitted, with a valid header).
    public func finish() throws(WAVError) {
        guard let file else { return }
        self.file = nil
        let header = WAVAudio.canonicalHeader(format: format, dataBytes: dataBytes)
        let patched =
            fseek(file, 0, SEEK_SET) == 0
            && header.withUnsafeBytes({ fwrite($0.baseAddress, 1, $0.count, file) }) == header.count
        if !patched, failure == nil { failure = Self.systemError() }
        if fclose(file) != 0, failure == nil { failure = Self.systemError() }
        if let failure { throw .fileSystem(path: path, reason: failure) }
        if droppedBytes > 0 { throw .tooLarge(bytes: dataBytes + droppedBytes) }
    }

    private static func systemError() -> String {
        String(cString: strerror(errno))
    }
}
