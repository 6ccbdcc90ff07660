extension FuzzTarget {
    /// The QualityMetrics module's fuzz targets.
    static let qualityMetrics: [FuzzTarget] = []
}
