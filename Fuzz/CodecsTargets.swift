import Codecs

extension FuzzTarget {
    /// The Codecs module's fuzz targets.
    static let codecs: [FuzzTarget] = [wavReader]

    /// Parses the input as a whole WAV file.
    static let wavReader = FuzzTarget(name: "wav-reader") { bytes in
        _ = try? WAVAudio(parsing: bytes)
    }
}
