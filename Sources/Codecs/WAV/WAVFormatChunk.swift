/// The contents of a `fmt ` chunk, checked to be 16-bit PCM in mono or stereo.
struct WAVFormatChunk {
    /// `WAVE_FORMAT_PCM`.
    static let pcmTag: UInt16 = 0x0001
    /// `WAVE_FORMAT_EXTENSIBLE`: the real format is the first two bytes of the sub-format GUID.
    static let extensibleTag: UInt16 = 0xFFFE
    /// The last 14 bytes of every `KSDATAFORMAT_SUBTYPE_*` GUID derived from a format tag.
    static let subFormatGUIDTail: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]

    /// The audio format described.
    let format: AudioFormat

    /// Parses and checks the `fmt ` chunk body of `size` bytes at `offset`.
    init(_ reader: LittleEndianBytes, offset: Int, size: Int) throws(WAVError) {
        guard size >= 16 else {
            throw .invalidFormat("fmt chunk at byte \(offset) has \(size) bytes, at least 16 needed")
        }
        try reader.require(size, at: offset, for: "fmt chunk")
        var tag = try reader.uint16(at: offset, for: "format tag")
        let channels = Int(try reader.uint16(at: offset + 2, for: "channel count"))
        let sampleRate = Int(try reader.uint32(at: offset + 4, for: "sample rate"))
        let byteRate = Int(try reader.uint32(at: offset + 8, for: "byte rate"))
        let blockAlign = Int(try reader.uint16(at: offset + 12, for: "block align"))
        let bitsPerSample = Int(try reader.uint16(at: offset + 14, for: "bits per sample"))
        if tag == Self.extensibleTag {
            tag = try Self.extensibleSubFormat(reader, offset: offset, size: size)
        }
        try Self.checkEncoding(tag: tag, bitsPerSample: bitsPerSample, channels: channels)
        guard sampleRate > 0 else {
            throw .invalidFormat("sample rate 0")
        }
        guard blockAlign == channels * 2 else {
            throw .invalidFormat("block align \(blockAlign) for \(channels) channel(s) of 16 bits (expected \(channels * 2))")
        }
        guard byteRate == sampleRate * blockAlign else {
            throw .invalidFormat("byte rate \(byteRate) for \(sampleRate) Hz × \(blockAlign) bytes (expected \(sampleRate * blockAlign))")
        }
        format = AudioFormat(sampleRate: sampleRate, channels: channels)
    }

    /// The format tag inside a `WAVE_FORMAT_EXTENSIBLE` chunk's sub-format GUID.
    private static func extensibleSubFormat(_ reader: LittleEndianBytes, offset: Int, size: Int) throws(WAVError) -> UInt16 {
        let extensionSize = try reader.uint16(at: offset + 16, for: "extension size")
        guard extensionSize >= 22, size >= 40 else {
            throw .invalidFormat("WAVE_FORMAT_EXTENSIBLE with a \(extensionSize)-byte extension in a \(size)-byte chunk (22 and 40 needed)")
        }
        let guid = offset + 24
        let subFormat = try reader.uint16(at: guid, for: "sub-format GUID")
        let tail = (2..<16).map { reader.bytes[guid + $0] }
        guard tail == subFormatGUIDTail else {
            throw .unsupportedEncoding("WAVE_FORMAT_EXTENSIBLE with a non-standard sub-format GUID")
        }
        return subFormat
    }

    /// Throws unless the encoding is 16-bit PCM in one or two channels, naming what it is.
    private static func checkEncoding(tag: UInt16, bitsPerSample: Int, channels: Int) throws(WAVError) {
        switch tag {
        case pcmTag:
            guard bitsPerSample == 16 else {
                throw .unsupportedEncoding("\(bitsPerSample)-bit PCM")
            }
        case 0x0003: throw .unsupportedEncoding("IEEE float")
        case 0x0006: throw .unsupportedEncoding("A-law")
        case 0x0007: throw .unsupportedEncoding("µ-law")
        default: throw .unsupportedEncoding("format tag 0x" + String(tag, radix: 16, uppercase: true))
        }
        guard channels >= 1 else {
            throw .invalidFormat("0 channels")
        }
        guard channels <= 2 else {
            throw .unsupportedEncoding("\(channels) channels")
        }
    }
}
