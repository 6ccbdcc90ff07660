/// How a ``G711Decoder`` fills the frames that never arrived.
public enum G711ConcealmentMethod: Sendable, Hashable, CaseIterable {
    /// ITU-T G.711 Appendix I: repeat the last pitch period(s), fade out, blend back in.
    case appendixI
    /// Repeat the last frame as it was (a baseline for comparisons).
    case frameRepetition
    /// Play silence (a baseline for comparisons).
    case zeroFill
}
