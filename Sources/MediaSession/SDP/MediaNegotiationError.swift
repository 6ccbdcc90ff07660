import Codecs
import RTP

/// Why an offer could not be answered or an answer could not be applied. Every case is a
/// reason to refuse the offer with SIP `488 Not Acceptable Here` (``sipStatusCode``); none
/// carries key material.
public enum MediaNegotiationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The description has no `m=audio` section.
    case noAudioSection
    /// The audio section has port 0: the peer refused or disabled it.
    case audioRejected
    /// Neither the audio section nor the session has a `c=` line.
    case noConnectionAddress
    /// The audio section's transport is not one of the RTP/AVP family.
    case unsupportedProfile(String)
    /// No offered codec is one of ours (the offered ones are listed as `a=rtpmap` text).
    case noCommonCodec(offered: [String])
    /// The offer is `RTP/SAVP` or `RTP/SAVPF` and we have no key for any of its `a=crypto`
    /// suites (or SRTP is not configured): answering in clear would connect a call in which no
    /// audio flows, so the offer is refused. `offeredSuites` lists the suites it named.
    case secureProfileWithoutCommonSuite(offeredSuites: [String])
    /// We require SRTP and the peer offered or answered none of our suites.
    case srtpRequired(offeredSuites: [String])
    /// The answer's `a=crypto` tag names none of our offered lines, or its suite differs from
    /// the line with that tag.
    case answerCryptoMismatch(tag: UInt32, suite: String)
    /// The answer names a codec that was not offered.
    case answerNamesUnofferedCodec(String)
    /// An answer arrived and no offer was made.
    case noOfferMade
    /// The answer has a different number of `m=` lines than the offer (RFC 3264 §6).
    case answerMediaCountMismatch(offered: Int, answered: Int)
    /// The packet duration asked for (`a=ptime`) cannot be sent with the codec: not a multiple
    /// of the 10 ms audio clock, or outside what the codec supports.
    case unsupportedPacketTime(milliseconds: Int, codec: String, reason: String)
    /// The agreed codec's parameters cannot be used (a malformed or contradictory `a=fmtp`).
    case unusableCodec(codec: String, reason: CodecRegistryError)

    /// The SIP status a user agent answers an offer with when this error refuses it: 488.
    public var sipStatusCode: Int { 488 }

    /// One line saying what was refused and why.
    public var description: String {
        switch self {
        case .noAudioSection: "no m=audio section"
        case .audioRejected: "the audio stream is rejected (port 0)"
        case .noConnectionAddress: "no c= line for the audio section"
        case let .unsupportedProfile(profile): "transport \(profile) is not RTP/AVP, RTP/AVPF, RTP/SAVP or RTP/SAVPF"
        case let .noCommonCodec(offered): "no codec in common with the offer (offered: \(offered.joined(separator: ", ")))"
        case let .secureProfileWithoutCommonSuite(suites):
            "the offer requires SRTP (RTP/SAVP) and none of its suites (\(suites.joined(separator: ", "))) is configured here; refusing rather than answering in clear"
        case let .srtpRequired(suites):
            "SRTP is required here and the peer's a=crypto suites (\(suites.isEmpty ? "none" : suites.joined(separator: ", "))) include none of ours"
        case let .answerCryptoMismatch(tag, suite): "the answer's a=crypto tag \(tag) (\(suite)) matches no offered line"
        case let .answerNamesUnofferedCodec(codec): "the answer names \(codec), which was not offered"
        case .noOfferMade: "an answer arrived and no offer was made"
        case let .answerMediaCountMismatch(offered, answered): "the answer has \(answered) m= lines for the offer's \(offered)"
        case let .unsupportedPacketTime(milliseconds, codec, reason): "ptime \(milliseconds) ms cannot be used with \(codec): \(reason)"
        case let .unusableCodec(codec, reason): "\(codec): \(reason)"
        }
    }
}
