extension AnalysisReport {
    /// A single self-contained HTML page.
    public func html() -> String { "" }
}
