import Glibc
import MediaSession
import RTP

/// What a ``Call`` needs of the user agent that owns it: its socket, its identity and the
/// headers every request carries.
struct CallAgent: Sendable {
    let transport: SIPTransport
    let configuration: SIPUserAgentConfiguration

    /// Our SIP address (the socket's).
    var localAddress: SocketAddress { transport.socket.localAddress }

    /// Our Contact value.
    var contact: String {
        "<sip:\(configuration.userName)@\(Self.hostText(localAddress)):\(localAddress.port)>"
    }

    /// A fresh Via for a new client transaction.
    func via() -> String {
        Via(host: Self.hostText(localAddress), port: localAddress.port, branch: SIPIdentifiers.branch()).description
    }

    /// The address as it appears in a URI (IPv6 bracketed).
    static func hostText(_ address: SocketAddress) -> String {
        address.isIPv6 ? "[\(address.host)]" : address.host
    }

    /// Now, on the monotonic clock.
    static func now() -> MediaTime {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return MediaTime(nanoseconds: Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec))
    }
}
