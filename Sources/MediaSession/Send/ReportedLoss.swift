import Synchronization

/// The newest loss the peer reported on our stream, handed from the receive path (I/O thread)
/// to the send path (audio thread) through one atomic word: no lock, no allocation.
///
/// The word holds the RTCP fraction lost (8 bits, loss × 256) under a count of the reports
/// seen, so that a reader tells a new report of the same loss from the old one.
final class ReportedLoss: Sendable {
    /// One report as read by the send path.
    struct Snapshot {
        /// Reports recorded so far (wrapping); 0 before the first.
        let reportCount: UInt32
        /// The fraction lost of the newest report, in 1/256.
        let fractionLost: UInt8

        /// The fraction lost in percent.
        var percent: Double { Double(fractionLost) * 100 / 256 }
    }

    private let word = Atomic<UInt32>(0)

    /// Records a report block's fraction lost (the I/O thread, the only writer).
    func record(fractionLost: UInt8) {
        let count = (word.load(ordering: .relaxed) >> 8) &+ 1
        // The count keeps 24 bits; after a wrap it skips 0, which means "no report yet".
        let nonZeroCount = count & 0xFF_FFFF == 0 ? 1 : count
        word.store(nonZeroCount << 8 | UInt32(fractionLost), ordering: .releasing)
    }

    /// The newest report (audio thread).
    var latest: Snapshot {
        let value = word.load(ordering: .acquiring)
        return Snapshot(reportCount: value >> 8, fractionLost: UInt8(truncatingIfNeeded: value))
    }
}
