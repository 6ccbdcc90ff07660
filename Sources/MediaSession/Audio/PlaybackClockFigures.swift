/// What the playback pacer knows of the device's clock, published from the audio thread for
/// ``MediaSessionStatistics``.
struct PlaybackClockFigures {
    var underruns = 0
    var underrunsAfterLateWakeUps = 0
    var skewPartsPerMillion: Double?
    var headroomMilliseconds: Double?

    /// Takes the pacer's figures; after an underrun the skew estimate starts again, and the
    /// last one stands meanwhile.
    mutating func update(from pacer: PlaybackPacer) {
        underruns = pacer.underruns
        underrunsAfterLateWakeUps = pacer.underrunsAfterLateWakeUps
        skewPartsPerMillion = pacer.estimator.skewPartsPerMillion ?? skewPartsPerMillion
        headroomMilliseconds = pacer.headroomMilliseconds
    }
}
