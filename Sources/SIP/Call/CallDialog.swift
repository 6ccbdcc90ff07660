import MediaSession
import RTP

/// What a call's SIP logic asks to be done once its lock is released.
struct CallEffects {
    /// Media session steps, in order.
    enum MediaStep {
        case start(NegotiatedAudio)
        case direction(MediaDirection)
        case hold
        case resume
        case stop
    }

    var datagrams: [(bytes: [UInt8], destination: SocketAddress)] = []
    var states: [CallState] = []
    var media: [MediaStep] = []

    mutating func send(_ message: SIPMessage, to destination: SocketAddress?) {
        guard let destination else { return }
        datagrams.append((message.bytes, destination))
    }
}

/// A change of hold asked by our side, waiting for its re-INVITE's answer.
enum HoldChange: Sendable, Equatable {
    case hold
    case resume
}

/// The SIP state of one call: dialog identifiers (RFC 3261 §12), its transactions, and what
/// was negotiated. Guarded by the ``Call``'s lock; never touches a socket or the session.
struct CallDialog {
    let callID: String
    var state: CallState = .calling
    var history: [CallState] = [.calling]
    var localParty: NameAddress
    var remoteParty: NameAddress
    var remoteTarget: SIPURI
    var routeSet: [String] = []
    var localCSeq: UInt32 = 1
    var remoteCSeq: UInt32?
    /// Where in-dialog requests go (the first route, else the remote target).
    var destination: SocketAddress?
    /// Where responses to the initial INVITE go (incoming calls).
    var inviteSource: SocketAddress?
    var inviteClient: InviteClientTransaction?
    var inviteServer: InviteServerTransaction?
    var clients: [String: NonInviteClientTransaction] = [:]
    var servers: [String: NonInviteServerTransaction] = [:]
    var ackForSuccess: SIPRequest?
    var pendingHold: HoldChange?
    var cancelWanted = false
    var provisionalReceived = false
    var authenticationTried = false
    var capabilities: LocalAudioCapabilities?
    var remoteOffer: SessionDescription?
    var negotiated: NegotiatedAudio?
    var locallyHeld = false
    var remotelyHeld = false
    var remoteUserAgent: String?
    var ringDeadline: MediaTime?
    var confirmed = false

    /// Moves to `next` (ended is final) and notes it for the state stream.
    mutating func move(to next: CallState, _ effects: inout CallEffects) {
        guard !state.isEnded, next != state else { return }
        state = next
        history.append(next)
        effects.states.append(next)
        if next.isEnded { effects.media.append(.stop) }
    }

    /// The state media direction implies while connected.
    var connectedState: CallState {
        if locallyHeld { return .held }
        if remotelyHeld { return .remotelyHeld }
        return .connected
    }

    /// Where a URI's host and port point (literal addresses only; 5060 when no port).
    static func address(of uri: SIPURI) -> SocketAddress? {
        try? SocketAddress(host: uri.host, port: uri.port ?? 5060)
    }

    /// Sets ``destination`` from the route set or the remote target.
    mutating func updateDestination() {
        if let first = routeSet.first, let route = try? NameAddress(parsing: first) {
            destination = Self.address(of: route.uri)
        } else {
            destination = Self.address(of: remoteTarget)
        }
    }
}
