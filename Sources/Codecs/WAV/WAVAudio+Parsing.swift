extension WAVAudio {
    /// Parses a whole WAV file held in memory.
    ///
    /// Never traps on malformed input: every length is checked before it is read.
    public init(parsing bytes: UnsafeRawBufferPointer) throws(WAVError) {
        let reader = LittleEndianBytes(bytes: bytes)
        let riff = try reader.fourCC(at: 0, for: "RIFF header")
        guard riff == "RIFF" else {
            throw .notWAVE("starts with '\(riff)', not 'RIFF'")
        }
        let form = try reader.fourCC(at: 8, for: "RIFF form type")
        guard form == "WAVE" else {
            throw .notWAVE("RIFF form type is '\(form)', not 'WAVE'")
        }
        var format: AudioFormat?
        var offset = 12
        while offset < bytes.count {
            let id = try reader.fourCC(at: offset, for: "chunk header")
            let size = Int(try reader.uint32(at: offset + 4, for: "chunk '\(id)' size"))
            let body = offset + 8
            let available = bytes.count - body
            switch id {
            case "fmt ":
                format = try WAVFormatChunk(reader, offset: body, size: size).format
            case "data":
                guard let format else {
                    throw .missingChunk("fmt ")
                }
                guard size <= available else {
                    throw .dataChunkBeyondEnd(offset: offset, declaredBytes: size, availableBytes: available)
                }
                self.init(format: format, samples: Self.samples(in: bytes, at: body, count: size / (2 * format.channels) * format.channels))
                return
            default:
                try reader.require(size, at: body, for: "chunk '\(id)'")
            }
            // Chunks are padded to an even length; a missing final pad byte is tolerated.
            offset = body + size + (size & 1)
        }
        throw .missingChunk("data")
    }

    /// Parses a whole WAV file held in memory.
    public init(parsing bytes: [UInt8]) throws(WAVError) {
        // `withUnsafeBytes` rethrows untyped errors: carry the typed one out in a `Result`.
        let parsed = bytes.withUnsafeBytes { buffer in Result { () throws(WAVError) in try WAVAudio(parsing: buffer) } }
        self = try parsed.get()
    }

    /// `count` little-endian 16-bit samples starting at `offset` (already bounds-checked).
    private static func samples(in bytes: UnsafeRawBufferPointer, at offset: Int, count: Int) -> [Int16] {
        [Int16](unsafeUninitializedCapacity: count) { samples, initialized in
            for index in 0..<count {
                let low = UInt16(bytes[offset + 2 * index])
                let high = UInt16(bytes[offset + 2 * index + 1])
                samples[index] = Int16(bitPattern: low | high << 8)
            }
            initialized = count
        }
    }
}
