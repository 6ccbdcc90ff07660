import AudioDevice
import Codecs
import RTP

/// Why a ``MediaSession`` operation failed.
public enum MediaSessionError: Error, Sendable, CustomStringConvertible {
    /// A socket could not be opened, bound or registered.
    case transport(TransportError)
    /// The negotiated media cannot be carried: an unknown codec, a bad address, an unusable key.
    case negotiation(String)
    /// A codec or audio processor refused its parameters.
    case codec(String)
    /// An SRTP session could not be created.
    case srtp(SRTPError)
    /// An audio device failed to open, read or write.
    case audioDevice(String)
    /// A character that is not a DTMF key (`0`–`9`, `*`, `#`, `A`–`D`).
    case invalidDigit(Character)
    /// The call is in the wrong state for the operation (for example `start` twice).
    case invalidState(String)

    /// One line saying what went wrong.
    public var description: String {
        switch self {
        case let .transport(error): "media transport: \(error)"
        case let .negotiation(reason): "negotiated media unusable: \(reason)"
        case let .codec(reason): "codec: \(reason)"
        case let .srtp(error): "SRTP: \(error)"
        case let .audioDevice(reason): reason
        case let .invalidDigit(character): "'\(character)' is not a DTMF key"
        case let .invalidState(reason): "media session: \(reason)"
        }
    }
}
