// QualityMetrics: the E-model, RFC 3611 VoIP metrics, the live QualityMonitor and the
// offline CaptureAnalyzer with its report renderers.
