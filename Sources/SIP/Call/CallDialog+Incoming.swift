import MediaSession
import RTP

extension CallDialog {
    /// A request for this call arrived from `source`: the INVITE again, a re-INVITE, ACK,
    /// CANCEL or BYE (the user agent answers other methods itself).
    mutating func receive(_ request: SIPRequest, from source: SocketAddress, now: MediaTime, agent: CallAgent) -> CallEffects {
        var effects = CallEffects()
        if let product = request.headers["User-Agent"] { remoteUserAgent = product }
        let branch = request.headers.topVia?.branch ?? ""
        let serverKey = "\(branch) \(request.method)"
        if let server = servers[serverKey] {
            for case .send(let message) in server.receiveRetransmission() { effects.send(message, to: source) }
            return effects
        }
        switch request.method {
        case "INVITE":
            if var server = inviteServer, server.request.headers.topVia?.branch == branch {
                for case .send(let message) in server.receive(request, now: now) { effects.send(message, to: inviteSource) }
                inviteServer = server
            } else {
                receiveReinvite(request, from: source, agent: agent, &effects)
            }
        case "ACK":
            if var server = inviteServer {
                _ = server.receive(request, now: now)
                inviteServer = server
            }
        case "CANCEL":
            respondOnce(request, status: inviteServer?.state == .proceeding ? 200 : 481, from: source, agent: agent, &effects)
            guard let server = inviteServer, server.state == .proceeding, server.request.headers.topVia?.branch == branch else { break }
            respondToInvite(response(to: server.request, status: 487, agent: agent), &effects)
            move(to: .ended(.remoteHangUp), &effects)
        case "BYE":
            respondOnce(request, status: 200, from: source, agent: agent, &effects)
            move(to: .ended(.remoteHangUp), &effects)
        default:
            respondOnce(request, status: 501, from: source, agent: agent, &effects)
        }
        return effects
    }

    /// Answers a non-INVITE request through a server transaction kept for its retransmissions.
    private mutating func respondOnce(_ request: SIPRequest, status: Int, from source: SocketAddress, agent: CallAgent, _ effects: inout CallEffects) {
        var server = NonInviteServerTransaction(request: request, timers: agent.configuration.timers)
        for case .send(let message) in server.respond(response(to: request, status: status, agent: agent), now: CallAgent.now()) {
            effects.send(message, to: source)
        }
        servers["\(request.headers.topVia?.branch ?? "") \(request.method)"] = server
    }

    /// A re-INVITE (RFC 3261 §14.2): a new offer in the dialog, for hold (sendonly, inactive)
    /// or resume (sendrecv), answered with our current willingness to send.
    private mutating func receiveReinvite(_ request: SIPRequest, from source: SocketAddress, agent: CallAgent, _ effects: inout CallEffects) {
        let cseq = request.headers.cseq?.number ?? 0
        if let remoteCSeq, cseq <= remoteCSeq { return }
        remoteCSeq = cseq
        inviteServer = InviteServerTransaction(request: request, timers: agent.configuration.timers)
        inviteSource = source
        if let contact = request.headers.contact { remoteTarget = contact.uri; updateDestination() }
        let pending = inviteClient.map { $0.state == .calling || $0.state == .proceeding } ?? false
        guard !pending, !state.isEnded else {
            respondToInvite(response(to: request, status: 491, agent: agent), &effects)
            return
        }
        guard var local = capabilities, let offer = try? SessionDescription(parsing: String(decoding: request.body, as: UTF8.self)) else {
            respondToInvite(response(to: request, status: 488, agent: agent), &effects)
            return
        }
        local.sessionVersion += 1
        local.direction = locallyHeld ? .sendOnly : .sendReceive
        guard let answered = try? MediaNegotiation.answer(to: offer, with: local) else {
            respondToInvite(response(to: request, status: 488, agent: agent), &effects)
            return
        }
        capabilities = local
        respondToInvite(response(to: request, status: 200, body: Array(answered.answer.text.utf8), agent: agent), &effects)
        let offered = offer.audio?.direction ?? .sendReceive
        // sendonly or inactive: the peer no longer wants our media (RFC 3264 §8.4).
        remotelyHeld = !offered.receives
        negotiated?.direction = answered.media.direction
        effects.media.append(.direction(answered.media.direction))
        move(to: connectedState, &effects)
    }

    /// A new incoming INVITE: 100 Trying, then 180 Ringing with our tag.
    mutating func ring(_ invite: SIPRequest, agent: CallAgent, _ effects: inout CallEffects) {
        inviteServer = InviteServerTransaction(request: invite, timers: agent.configuration.timers)
        respondToInvite(SIPResponse(answering: invite, statusCode: 100), &effects)
        remoteOffer = try? SessionDescription(parsing: String(decoding: invite.body, as: UTF8.self))
        guard remoteOffer != nil else {
            respondToInvite(response(to: invite, status: 488, agent: agent), &effects)
            move(to: .ended(.failed(status: 488, reason: "the INVITE has no SDP offer we can read")), &effects)
            return
        }
        respondToInvite(response(to: invite, status: 180, agent: agent), &effects)
        move(to: .ringing(earlyMedia: false), &effects)
    }
}
