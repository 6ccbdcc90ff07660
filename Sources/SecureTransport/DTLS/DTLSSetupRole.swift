/// The `a=setup` attribute (RFC 4145 §4, RFC 8842 §5): which end starts the DTLS handshake.
public enum DTLSSetupAttribute: String, Sendable, Hashable, CaseIterable {
    /// This end will initiate: it is the DTLS client.
    case active
    /// This end will accept: it is the DTLS server.
    case passive
    /// Either; an offer must say this (RFC 8842 §5.2).
    case actpass
    /// Neither, for now.
    case holdconn

    /// The attribute this end answers with to an offer of `offered` (RFC 8842 §5.3): `passive`
    /// to an `actpass` or `active` offer, `active` to a `passive` one; nil for `holdconn`.
    ///
    /// As the server of an `actpass` offer, an ICE-lite answerer never has to send first: the
    /// peer's ClientHello follows its own connectivity checks, from the address they nominated.
    public static func answer(toOffered offered: DTLSSetupAttribute) -> DTLSSetupAttribute? {
        switch offered {
        case .actpass, .active: .passive
        case .passive: .active
        case .holdconn: nil
        }
    }

    /// The DTLS role a negotiated `a=setup` gives this end: client for `active`, server for
    /// `passive`; nil for the others, which do not settle a role.
    public var role: DTLSRole? {
        switch self {
        case .active: .client
        case .passive: .server
        case .actpass, .holdconn: nil
        }
    }
}

/// Which side of the DTLS handshake an endpoint plays.
public enum DTLSRole: String, Sendable, Hashable {
    /// Sends the ClientHello (`a=setup:active`).
    case client
    /// Answers it (`a=setup:passive`).
    case server
}
