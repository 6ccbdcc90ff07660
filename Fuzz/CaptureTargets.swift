extension FuzzTarget {
    /// The Capture module's fuzz targets.
    static let capture: [FuzzTarget] = []
}
