// QualityMetrics: the live call-quality figures a softphone links: the E-model (G.107, G.107.1),
// RFC 3611 VoIP metrics and the live QualityMonitor. The offline analyzer of captures is in
// CaptureAnalysis, so linking this module never brings in libpcap.
