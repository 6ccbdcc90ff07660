extension FuzzTarget {
    /// The MediaSession module's fuzz targets.
    static let mediaSession: [FuzzTarget] = []
}
