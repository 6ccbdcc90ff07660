import MediaSession
import RTP

/// The codec of an interop call.
enum InteropCodec: String, CaseIterable, Sendable {
    case pcmu = "PCMU"
    case opus = "Opus"

    var sdp: SDPCodec { self == .pcmu ? .pcmu : .opus }
    /// The PCM rate the session works at.
    var sampleRate: Int { self == .pcmu ? 8000 : 48000 }
    var baresipName: String { self == .pcmu ? "PCMU/8000/1,telephone-event" : "opus/48000/2,telephone-event" }
}

/// The SRTP of an interop call.
enum InteropSRTP: String, CaseIterable, Sendable {
    case plain
    case sha80 = "AES_CM_128_HMAC_SHA1_80"
    case sha32 = "AES_CM_128_HMAC_SHA1_32"

    var suites: [SRTPCryptoSuite] {
        switch self {
        case .plain: []
        case .sha80: [.aes128CounterModeHMACSHA1Tag80]
        case .sha32: [.aes128CounterModeHMACSHA1Tag32]
        }
    }
}

/// The softphone on the other end.
enum InteropPeerKind: String, CaseIterable, Sendable {
    case baresip
    case linphone
}

/// One row of the matrix: who, which role the engine plays, codec, SRTP, rtcp-mux.
struct InteropCase: Sendable, CustomStringConvertible {
    let peer: InteropPeerKind
    let engineCalls: Bool
    let codec: InteropCodec
    let srtp: InteropSRTP
    let muxAccepted: Bool

    var description: String {
        "\(peer.rawValue) engine-\(engineCalls ? "caller" : "callee") \(codec.rawValue) \(srtp.rawValue) mux-\(muxAccepted ? "accepted" : "declined")"
    }

    /// Why the peer cannot make this call, when it cannot: baresip 1.0 offers only
    /// AES_CM_128_HMAC_SHA1_80 (one `a=crypto` in its recorded offer, no setting to change
    /// it), so as caller it cannot offer a `_32` call; the engine, configured for `_32` only,
    /// must then refuse with 488 rather than answer in clear.
    var peerCannotOffer: String? {
        peer == .baresip && !engineCalls && srtp == .sha32
            ? "baresip 1.0 offers only AES_CM_128_HMAC_SHA1_80: the engine must refuse with 488" : nil
    }

    /// The whole matrix of issue 12: 2 peers × 2 roles × 2 codecs × 3 SRTP × 2 mux = 48 calls.
    static var fullMatrix: [InteropCase] {
        var cases: [InteropCase] = []
        for peer in InteropPeerKind.allCases {
            for engineCalls in [true, false] {
                for codec in InteropCodec.allCases {
                    for srtp in InteropSRTP.allCases {
                        for mux in [true, false] {
                            cases.append(InteropCase(peer: peer, engineCalls: engineCalls, codec: codec, srtp: srtp, muxAccepted: mux))
                        }
                    }
                }
            }
        }
        return cases
    }

    /// The default-run subset: both peers, both roles, both codecs, both SDES suites, mux declined and accepted.
    static let subset: [InteropCase] = [
        InteropCase(peer: .baresip, engineCalls: true, codec: .pcmu, srtp: .plain, muxAccepted: true),
        InteropCase(peer: .baresip, engineCalls: false, codec: .opus, srtp: .sha80, muxAccepted: false),
        InteropCase(peer: .baresip, engineCalls: true, codec: .pcmu, srtp: .sha32, muxAccepted: false),
        InteropCase(peer: .linphone, engineCalls: true, codec: .pcmu, srtp: .plain, muxAccepted: false),
        InteropCase(peer: .linphone, engineCalls: false, codec: .pcmu, srtp: .sha80, muxAccepted: true),
        InteropCase(peer: .linphone, engineCalls: true, codec: .opus, srtp: .sha32, muxAccepted: true),
    ]
}
