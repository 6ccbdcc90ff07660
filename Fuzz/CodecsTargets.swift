extension FuzzTarget {
    /// The Codecs module's fuzz targets.
    static let codecs: [FuzzTarget] = []
}
