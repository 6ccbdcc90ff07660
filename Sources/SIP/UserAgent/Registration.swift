import MediaSession
import RTP

/// Where a registration stands.
public enum RegistrationState: Sendable, Equatable, CustomStringConvertible {
    /// REGISTER sent, no final answer yet.
    case registering
    /// The registrar accepted the binding for `expiresSeconds`; it is refreshed halfway.
    case registered(expiresSeconds: Int)
    /// The registrar refused (`status`), or did not answer (`status` 408).
    case failed(status: Int, reason: String)

    /// `registered (300 s)`, `failed (403 Forbidden)`.
    public var description: String {
        switch self {
        case .registering: "registering"
        case .registered(let seconds): "registered (\(seconds) s)"
        case .failed(let status, let reason): "failed (\(status) \(reason))"
        }
    }
}

/// One binding with a registrar (RFC 3261 §10): REGISTER, a digest answer to 401/407, and a
/// refresh at half the granted expiry, all through non-INVITE client transactions.
struct Registration {
    let registrar: SIPURI
    let destination: SocketAddress
    let callID = SIPIdentifiers.token(24)
    let fromTag = SIPIdentifiers.token(10)
    let requestedExpiresSeconds: Int
    var cseq: UInt32 = 0
    var state = RegistrationState.registering
    var transaction: NonInviteClientTransaction?
    var challenged = false
    var refreshAt: MediaTime?

    /// A fresh REGISTER for the address of record `user@registrar-host`.
    mutating func request(agent: CallAgent) -> SIPRequest {
        cseq += 1
        challenged = false
        let addressOfRecord = NameAddress(uri: SIPURI(user: agent.configuration.userName, host: registrar.host, port: registrar.port))
        var from = addressOfRecord
        from.tag = fromTag
        var headers = SIPHeaders()
        headers.add("Via", agent.via())
        headers.add("Max-Forwards", "70")
        headers.add("From", from.description)
        headers.add("To", addressOfRecord.description)
        headers.add("Call-ID", callID)
        headers.add("CSeq", "\(cseq) REGISTER")
        headers.add("Contact", agent.contact)
        headers.add("Expires", String(requestedExpiresSeconds))
        headers.add("User-Agent", agent.configuration.product)
        let registrarURI = SIPURI(host: registrar.host, port: registrar.port)
        return SIPRequest(method: "REGISTER", uri: registrarURI.description, headers: headers)
    }

    /// Handles a final response; returns a request to send when the registrar challenged us.
    mutating func handle(_ response: SIPResponse, now: MediaTime, agent: CallAgent) -> SIPRequest? {
        guard let sent = transaction?.request else { return nil }
        if response.statusCode == 401 || response.statusCode == 407, !challenged, let credentials = agent.configuration.credentials {
            cseq += 1
            if let retried = credentials.retry(sent, challengedBy: response, cseq: cseq, via: agent.via()) {
                challenged = true
                return retried
            }
        }
        if response.statusCode / 100 == 2 {
            let granted = Self.grantedExpiry(response, contact: agent.contact) ?? requestedExpiresSeconds
            state = .registered(expiresSeconds: granted)
            refreshAt = now + MediaTime(seconds: Double(max(granted, 2)) / 2)
        } else {
            state = .failed(status: response.statusCode, reason: response.reason)
            refreshAt = nil
        }
        return nil
    }

    /// The expiry the registrar granted our Contact: its `expires` parameter, else the Expires header.
    static func grantedExpiry(_ response: SIPResponse, contact: String) -> Int? {
        let ours = try? NameAddress(parsing: contact)
        for value in response.headers.values("Contact") {
            guard let binding = try? NameAddress(parsing: value), binding.uri == ours?.uri,
                let expires = binding.parameters.first(where: { $0.name == "expires" }).flatMap({ Int($0.value) })
            else { continue }
            return expires
        }
        return response.headers["Expires"].flatMap { Int($0) }
    }
}
