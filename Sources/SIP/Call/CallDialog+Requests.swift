import MediaSession
import RTP

extension CallDialog {
    /// A request inside the dialog (RFC 3261 §12.2.1.1): the remote target as Request-URI,
    /// the route set, our Contact on INVITE, a fresh Via, `body` as SDP when not empty.
    func request(_ method: String, cseq: UInt32, body: [UInt8] = [], agent: CallAgent) -> SIPRequest {
        var headers = SIPHeaders()
        headers.add("Via", agent.via())
        headers.add("Max-Forwards", "70")
        headers.add("From", localParty.description)
        headers.add("To", remoteParty.description)
        headers.add("Call-ID", callID)
        headers.add("CSeq", "\(cseq) \(method)")
        for route in routeSet { headers.add("Route", route) }
        if method == "INVITE" {
            headers.add("Contact", agent.contact)
            headers.add("Allow", SIPUserAgent.allowedMethods)
        }
        headers.add("User-Agent", agent.configuration.product)
        if !body.isEmpty { headers.add("Content-Type", "application/sdp") }
        return SIPRequest(method: method, uri: remoteTarget.description, headers: headers, body: body)
    }

    /// The CANCEL of our pending INVITE (RFC 3261 §9.1): its Request-URI, top Via, From, To,
    /// Call-ID, Route and CSeq number.
    func cancel(of invite: SIPRequest) -> SIPRequest {
        var headers = SIPHeaders()
        for name in ["Via", "Max-Forwards", "From", "To", "Call-ID"] {
            if let value = name == "Via" ? invite.headers.values("Via").first : invite.headers[name] { headers.add(name, value) }
        }
        headers.add("CSeq", "\(invite.headers.cseq?.number ?? 1) CANCEL")
        for route in invite.headers.values("Route") { headers.add("Route", route) }
        return SIPRequest(method: "CANCEL", uri: invite.uri, headers: headers)
    }

    /// A response to `request` from this dialog's side: our tag, and Contact, product and
    /// `body` as SDP where given.
    func response(to request: SIPRequest, status: Int, body: [UInt8] = [], agent: CallAgent) -> SIPResponse {
        var response = SIPResponse(answering: request, statusCode: status, toTag: localParty.tag)
        if request.method == "INVITE", status > 100, status < 300 {
            response.headers.add("Contact", agent.contact)
            response.headers.add("Allow", SIPUserAgent.allowedMethods)
        }
        response.headers.add("Server", agent.configuration.product)
        if !body.isEmpty {
            response.headers.add("Content-Type", "application/sdp")
            response.body = body
        }
        return response
    }

    /// Starts a non-INVITE client transaction for `request`.
    mutating func startClient(_ request: SIPRequest, agent: CallAgent, _ effects: inout CallEffects) {
        let transaction = NonInviteClientTransaction(request: request, now: CallAgent.now(), timers: agent.configuration.timers)
        clients[Self.key(request)] = transaction
        for case .send(let message) in transaction.start() { effects.send(message, to: destination) }
    }

    /// Starts an INVITE client transaction for `request`.
    mutating func startInvite(_ request: SIPRequest, agent: CallAgent, _ effects: inout CallEffects) {
        let transaction = InviteClientTransaction(request: request, now: CallAgent.now(), timers: agent.configuration.timers)
        inviteClient = transaction
        for case .send(let message) in transaction.start() { effects.send(message, to: destination) }
    }

    /// Sends BYE.
    mutating func sendBye(agent: CallAgent, _ effects: inout CallEffects) {
        localCSeq += 1
        startClient(request("BYE", cseq: localCSeq, agent: agent), agent: agent, &effects)
    }

    /// Sends `response` through the INVITE server transaction.
    mutating func respondToInvite(_ response: SIPResponse, _ effects: inout CallEffects) {
        guard var server = inviteServer else { return }
        let actions = server.respond(response, now: CallAgent.now())
        inviteServer = server
        for case .send(let message) in actions { effects.send(message, to: inviteSource) }
    }

    /// The key of a client transaction: top Via branch and method (a CANCEL shares its INVITE's branch).
    static func key(_ request: SIPRequest) -> String {
        "\(request.headers.topVia?.branch ?? "") \(request.method)"
    }

    /// The key of the client transaction a response belongs to.
    static func key(_ response: SIPResponse) -> String {
        "\(response.headers.topVia?.branch ?? "") \(response.headers.cseq?.method ?? "")"
    }
}

extension DigestCredentials {
    /// `request` again, answering the 401 or 407 `response`'s challenge: a fresh Via branch,
    /// CSeq `cseq`, and an Authorization (or Proxy-Authorization) header. Nil when the
    /// response has no digest challenge we support.
    func retry(_ request: SIPRequest, challengedBy response: SIPResponse, cseq: UInt32, via: String) -> SIPRequest? {
        let isProxy = response.statusCode == 407
        let challenges = response.headers.fieldValues(isProxy ? "Proxy-Authenticate" : "WWW-Authenticate")
        // Prefer SHA-256 when both are offered (RFC 8760 §2.4).
        let parsed = challenges.compactMap(DigestChallenge.init(parsing:))
        guard let challenge = parsed.first(where: { $0.algorithm == .sha256 }) ?? parsed.first else { return nil }
        var retried = request
        retried.headers.set("Via", via)
        retried.headers.set("CSeq", "\(cseq) \(request.method)")
        let value = authorization(for: challenge, method: request.method, uri: request.uri, cnonce: SIPIdentifiers.token(12))
        retried.headers.set(isProxy ? "Proxy-Authorization" : "Authorization", value)
        return retried
    }
}
