extension FuzzTarget {
    /// The Jitter module's fuzz targets.
    static let jitter: [FuzzTarget] = []
}
