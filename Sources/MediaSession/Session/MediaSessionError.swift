import AudioDevice
import Codecs
import RTP
import SecureTransport

/// Why a ``MediaSession`` operation failed.
public enum MediaSessionError: Error, Sendable, CustomStringConvertible {
    /// A socket could not be opened, bound or registered.
    case transport(TransportError)
    /// The offer/answer exchange or its outcome cannot be used.
    case negotiation(MediaNegotiationError)
    /// A browser's offer cannot be answered (WebRTC).
    case webRTCOffer(WebRTCOfferError)
    /// DTLS-SRTP could not be set up (OpenSSL refused the certificate or context).
    case secureTransport(SecureTransportError)
    /// The negotiated codec could not be built from its description.
    case codecRegistry(CodecRegistryError)
    /// A codec or audio processor refused its parameters or failed.
    case codec(CodecError)
    /// An SRTP session could not be created.
    case srtp(SRTPError)
    /// An audio device failed to open, read or write.
    case audioDevice(AudioDeviceError)
    /// Audio given by an ``AudioEndpoint`` does not have the format the codec needs.
    case audioFormat(expected: AudioFormat, capture: AudioFormat, playback: AudioFormat)
    /// A character that is not a DTMF key (`0`–`9`, `*`, `#`, `A`–`D`).
    case invalidDigit(Character)
    /// The call is in the wrong state for the operation (for example `start` twice).
    case invalidState(String)

    /// One line saying what went wrong.
    public var description: String {
        switch self {
        case let .transport(error): "media transport: \(error)"
        case let .negotiation(error): "negotiation: \(error)"
        case let .webRTCOffer(error): "WebRTC offer: \(error)"
        case let .secureTransport(error): "DTLS: \(error)"
        case let .codecRegistry(error): "codec: \(error)"
        case let .codec(error): "codec: \(error)"
        case let .srtp(error): "SRTP: \(error)"
        case let .audioDevice(error): "\(error)"
        case let .audioFormat(expected, capture, playback): "audio: the codec wants \(expected), the endpoint gives \(capture) / \(playback)"
        case let .invalidDigit(character): "'\(character)' is not a DTMF key"
        case let .invalidState(reason): "media session: \(reason)"
        }
    }
}
