import Codecs

extension FuzzTarget {
    /// The Codecs module's fuzz targets.
    static let codecs: [FuzzTarget] = [wavReader, comfortNoisePayload]

    /// Parses the input as a whole WAV file.
    static let wavReader = FuzzTarget(name: "wav-reader") { bytes in
        _ = try? WAVAudio(parsing: bytes)
    }

    /// Parses the input as an RFC 3389 comfort noise payload and generates a frame from it.
    static let comfortNoisePayload = FuzzTarget(name: "comfort-noise-payload") { bytes in
        guard let parameters = try? ComfortNoiseParameters(parsing: bytes) else { return }
        var generator = ComfortNoiseGenerator()
        generator.update(parameters)
        var frame = [Int16](repeating: 0, count: 160)
        frame.withUnsafeMutableBufferPointer { generator.generate(into: $0) }
    }
}
