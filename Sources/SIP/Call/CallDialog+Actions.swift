import MediaSession
import RTP

extension CallDialog {
    /// Answers the ringing INVITE's offer with `local`: 200 OK with our SDP and media start,
    /// or 488 when nothing in the offer is acceptable.
    mutating func answer(with local: LocalAudioCapabilities, agent: CallAgent) -> CallEffects {
        var effects = CallEffects()
        guard let invite = inviteServer?.request, inviteServer?.state == .proceeding, let offer = remoteOffer else { return effects }
        var local = local
        local.sessionID = UInt64.random(in: 1...UInt64(Int64.max))
        do {
            let (answer, media) = try MediaNegotiation.answer(to: offer, with: local)
            capabilities = local
            negotiated = media
            respondToInvite(response(to: invite, status: 200, body: Array(answer.text.utf8), agent: agent), &effects)
            confirmed = true
            effects.media.append(.start(media))
            move(to: .connected, &effects)
        } catch {
            respondToInvite(response(to: invite, status: 488, agent: agent), &effects)
            move(to: .ended(.failed(status: 488, reason: error.description)), &effects)
        }
        return effects
    }

    /// Refuses the ringing INVITE with `status`.
    mutating func reject(status: Int, agent: CallAgent) -> CallEffects {
        var effects = CallEffects()
        guard let invite = inviteServer?.request, inviteServer?.state == .proceeding else { return effects }
        respondToInvite(response(to: invite, status: status, agent: agent), &effects)
        move(to: .ended(.rejected), &effects)
        return effects
    }

    /// Hangs up in whatever way the state needs, ending the call for `reason`.
    mutating func hangUp(agent: CallAgent, reason: CallEndReason = .localHangUp) -> CallEffects {
        var effects = CallEffects()
        guard !state.isEnded else { return effects }
        if let invite = inviteServer?.request, inviteServer?.state == .proceeding, !confirmed {
            respondToInvite(response(to: invite, status: 603, agent: agent), &effects)
        } else if !confirmed, let invite = inviteClient?.request {
            if provisionalReceived {
                startClient(cancel(of: invite), agent: agent, &effects)
            } else {
                // RFC 3261 §9.1: no CANCEL before a provisional response; it goes when one comes.
                cancelWanted = true
            }
        } else {
            sendBye(agent: agent, &effects)
        }
        move(to: .ended(reason), &effects)
        return effects
    }

    /// Sends a re-INVITE offering sendonly (hold) or sendrecv (resume).
    mutating func reinvite(_ change: HoldChange, agent: CallAgent) -> CallEffects {
        var effects = CallEffects()
        let busy = inviteClient.map { $0.state == .calling || $0.state == .proceeding } ?? false
        guard confirmed, !state.isEnded, !busy, inviteServer?.state != .proceeding, var local = capabilities else { return effects }
        guard (change == .hold) != locallyHeld else { return effects }
        local.sessionVersion += 1
        local.direction = change == .hold ? .sendOnly : .sendReceive
        capabilities = local
        pendingHold = change
        authenticationTried = false
        localCSeq += 1
        let offer = MediaNegotiation.offer(local)
        startInvite(request("INVITE", cseq: localCSeq, body: Array(offer.text.utf8), agent: agent), agent: agent, &effects)
        return effects
    }

    /// The session could not start: end the call with a BYE.
    mutating func failMedia(_ message: String, agent: CallAgent) -> CallEffects {
        var effects = CallEffects()
        guard !state.isEnded else { return effects }
        sendBye(agent: agent, &effects)
        move(to: .ended(.failed(status: 0, reason: "media: \(message)")), &effects)
        return effects
    }

    /// Advances every transaction to `now`; ends an unanswered call at its ring deadline.
    mutating func tick(now: MediaTime, agent: CallAgent) -> CallEffects {
        var effects = CallEffects()
        if var client = inviteClient {
            for action in client.tick(now: now) {
                switch action {
                case .send(let message): effects.send(message, to: destination)
                case .timedOut:
                    if confirmed { pendingHold = nil } else { move(to: .ended(.timeout), &effects) }
                case .deliver, .terminated: break
                }
            }
            inviteClient = client
        }
        if var server = inviteServer {
            for action in server.tick(now: now) {
                switch action {
                case .send(let message): effects.send(message, to: inviteSource)
                case .timedOut where server.lastResponse.map({ $0.statusCode < 300 }) ?? false:
                    // No ACK for our 2xx (RFC 3261 §13.3.1.4): end the call.
                    if !state.isEnded { sendBye(agent: agent, &effects) }
                    move(to: .ended(.failed(status: 0, reason: "no ACK for our 200 OK")), &effects)
                default: break
                }
            }
            inviteServer = server
        }
        for (key, var client) in clients {
            for case .send(let message) in client.tick(now: now) { effects.send(message, to: destination) }
            clients[key] = client.state == .terminated ? nil : client
        }
        for (key, var server) in servers {
            _ = server.tick(now: now)
            servers[key] = server.isTerminated ? nil : server
        }
        if let ringDeadline, !confirmed, now >= ringDeadline, !state.isEnded {
            let ended = hangUp(agent: agent, reason: .timeout)
            effects.datagrams += ended.datagrams
            effects.states += ended.states
            effects.media += ended.media
        }
        return effects
    }
}
