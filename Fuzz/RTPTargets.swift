extension FuzzTarget {
    /// The RTP module's fuzz targets.
    static let rtp: [FuzzTarget] = []
}
