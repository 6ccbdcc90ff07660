// Tests for the QualityMetrics module.
