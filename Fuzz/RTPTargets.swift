extension FuzzTarget {
    /// The RTP module's fuzz targets.
    static let rTP: [FuzzTarget] = []
}
