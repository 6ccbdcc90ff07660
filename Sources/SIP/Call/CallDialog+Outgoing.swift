import MediaSession
import RTP

extension CallDialog {
    /// A response to one of our requests arrived.
    mutating func receive(_ response: SIPResponse, now: MediaTime, agent: CallAgent) -> CallEffects {
        var effects = CallEffects()
        if let server = response.headers["Server"] ?? response.headers["User-Agent"] { remoteUserAgent = server }
        let key = Self.key(response)
        if response.headers.cseq?.method == "INVITE" {
            guard var transaction = inviteClient, Self.key(transaction.request) == key, transaction.state != .terminated else {
                // A 2xx retransmitted after the transaction ended: ACK it again (RFC 3261 §13.2.2.4).
                if response.statusCode / 100 == 2, let ack = ackForSuccess, ack.headers.cseq?.number == response.headers.cseq?.number {
                    effects.send(.request(ack), to: destination)
                }
                return effects
            }
            let actions = transaction.receive(response, now: now)
            inviteClient = transaction
            for action in actions {
                switch action {
                case .send(let message): effects.send(message, to: destination)
                case .deliver(let delivered): handleInviteResponse(delivered, transaction.request, agent: agent, &effects)
                case .timedOut, .terminated: break
                }
            }
            return effects
        }
        guard var transaction = clients[key] else { return effects }
        let actions = transaction.receive(response, now: now)
        clients[key] = transaction
        for case .deliver(let delivered) in actions where delivered.statusCode == 401 || delivered.statusCode == 407 {
            // A challenged BYE is retried once with credentials.
            guard transaction.request.headers["Authorization"] == nil, transaction.request.headers["Proxy-Authorization"] == nil,
                let credentials = agent.configuration.credentials
            else { continue }
            localCSeq += 1
            if let retried = credentials.retry(transaction.request, challengedBy: delivered, cseq: localCSeq, via: agent.via()) {
                startClient(retried, agent: agent, &effects)
            }
        }
        return effects
    }

    private mutating func handleInviteResponse(_ response: SIPResponse, _ invite: SIPRequest, agent: CallAgent, _ effects: inout CallEffects) {
        let initial = !confirmed
        switch response.statusCode {
        case 100..<200:
            guard initial else { return }
            provisionalReceived = true
            if cancelWanted {
                startClient(cancel(of: invite), agent: agent, &effects)
                cancelWanted = false
                return
            }
            if response.statusCode == 180 || response.statusCode == 183 {
                move(to: .ringing(earlyMedia: response.statusCode == 183 && !response.body.isEmpty), &effects)
            }
        case 200..<300:
            acceptSuccess(response, invite, initial: initial, agent: agent, &effects)
        default:
            if response.statusCode == 401 || response.statusCode == 407, !authenticationTried, let credentials = agent.configuration.credentials,
                !state.isEnded
            {
                authenticationTried = true
                localCSeq += 1
                if let retried = credentials.retry(invite, challengedBy: response, cseq: localCSeq, via: agent.via()) {
                    startInvite(retried, agent: agent, &effects)
                    return
                }
            }
            if initial {
                move(to: .ended(.forFailure(response)), &effects)
            } else {
                pendingHold = nil
            }
        }
    }

    private mutating func acceptSuccess(_ response: SIPResponse, _ invite: SIPRequest, initial: Bool, agent: CallAgent, _ effects: inout CallEffects) {
        if initial {
            if let to = response.headers.to { remoteParty = to }
            if let contact = response.headers.contact { remoteTarget = contact.uri }
            routeSet = response.headers.values("Record-Route").reversed()
            updateDestination()
            confirmed = true
        }
        let ack = request("ACK", cseq: invite.headers.cseq?.number ?? localCSeq, agent: agent)
        ackForSuccess = ack
        effects.send(.request(ack), to: destination)
        guard !state.isEnded else {
            // We hung up while the 200 was on its way: the call is established, so end it.
            sendBye(agent: agent, &effects)
            return
        }
        guard let capabilities else { return }
        let negotiatedMedia: NegotiatedAudio
        do {
            let answer = try SessionDescription(parsing: String(decoding: response.body, as: UTF8.self))
            negotiatedMedia = try MediaNegotiation.apply(answer: answer, toOfferFrom: capabilities)
        } catch {
            if initial {
                sendBye(agent: agent, &effects)
                move(to: .ended(.failed(status: 488, reason: "answer refused: \(error)")), &effects)
            }
            pendingHold = nil
            return
        }
        if initial {
            negotiated = negotiatedMedia
            effects.media.append(.start(negotiatedMedia))
        } else if let change = pendingHold {
            // The peer's answer says whether it saw the hold (recvonly or inactive) or the resume.
            negotiated?.direction = negotiatedMedia.direction
            locallyHeld = change == .hold
            effects.media.append(change == .hold ? .hold : .resume)
            pendingHold = nil
        }
        move(to: connectedState, &effects)
    }
}
