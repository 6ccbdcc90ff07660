extension WAVAudio {
    /// The canonical 44-byte-header WAV file for this audio: `RIFF`/`WAVE`, a 16-byte PCM
    /// `fmt ` chunk and the `data` chunk. Throws for a format the reader would refuse (not mono
    /// or stereo, no sample rate, a partial last frame) and for audio over 4 GiB.
    public func serialized() throws(WAVError) -> [UInt8] {
        guard (1...2).contains(format.channels) else {
            throw .unsupportedEncoding("\(format.channels) channels")
        }
        guard format.sampleRate > 0, format.sampleRate <= Int(UInt32.max) / 4 else {
            throw .invalidFormat("sample rate \(format.sampleRate)")
        }
        guard samples.count % format.channels == 0 else {
            throw .invalidFormat("\(samples.count) samples do not make whole frames of \(format.channels) channels")
        }
        let dataBytes = samples.count * 2
        guard dataBytes <= Int(UInt32.max) - 36 else {
            throw .tooLarge(bytes: dataBytes)
        }
        var bytes = Self.canonicalHeader(format: format, dataBytes: dataBytes)
        bytes.reserveCapacity(44 + dataBytes)
        func append16(_ value: Int) { withUnsafeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian) { bytes.append(contentsOf: $0) } }
        for sample in samples {
            append16(Int(sample))
        }
        return bytes
    }

    /// The 44-byte header of a canonical WAV file of `format` whose `data` chunk holds
    /// `dataBytes` bytes: `RIFF`/`WAVE`, a 16-byte PCM `fmt ` chunk and the `data` chunk header.
    static func canonicalHeader(format: AudioFormat, dataBytes: Int) -> [UInt8] {
        let blockAlign = format.channels * 2
        var bytes: [UInt8] = []
        bytes.reserveCapacity(44)
        func append(_ text: String) { bytes.append(contentsOf: text.utf8) }
        func append32(_ value: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { bytes.append(contentsOf: $0) } }
        func append16(_ value: Int) { withUnsafeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian) { bytes.append(contentsOf: $0) } }
        append("RIFF")
        append32(36 + dataBytes)
        append("WAVE")
        append("fmt ")
        append32(16)
        append16(Int(WAVFormatChunk.pcmTag))
        append16(format.channels)
        append32(format.sampleRate)
        append32(format.sampleRate * blockAlign)
        append16(blockAlign)
        append16(16)
        append("data")
        append32(dataBytes)
        return bytes
    }
}
