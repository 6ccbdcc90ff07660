/// A `WWW-Authenticate` or `Proxy-Authenticate` digest challenge (RFC 3261 §22, RFC 8760).
public struct DigestChallenge: Sendable, Equatable {
    /// The realm.
    public var realm: String
    /// The server's nonce.
    public var nonce: String
    /// The opaque value to echo, if any.
    public var opaque: String?
    /// The algorithm.
    public var algorithm: DigestAlgorithm
    /// Whether the server offered `qop=auth`.
    public var offersAuthQOP: Bool
    /// Whether the nonce was stale (retry with the new one without asking the user).
    public var stale: Bool

    /// A challenge with the given parts.
    public init(realm: String, nonce: String, opaque: String? = nil, algorithm: DigestAlgorithm = .md5, offersAuthQOP: Bool = true, stale: Bool = false) {
        self.realm = realm
        self.nonce = nonce
        self.opaque = opaque
        self.algorithm = algorithm
        self.offersAuthQOP = offersAuthQOP
        self.stale = stale
    }

    /// Parses a header value such as `Digest realm="a", nonce="b", qop="auth", algorithm=SHA-256`.
    /// Returns nil when it is not a Digest challenge, lacks realm or nonce, or names an
    /// algorithm we do not support.
    public init?(parsing text: String) {
        let trimmed = text.trimmingSIPWhitespace()
        guard trimmed.lowercased().hasPrefix("digest ") else { return nil }
        let parameters = Self.parameters(String(trimmed.dropFirst(7)))
        guard let realm = parameters["realm"], let nonce = parameters["nonce"] else { return nil }
        guard let algorithm = DigestAlgorithm(challengeName: parameters["algorithm"] ?? "MD5") else { return nil }
        self.realm = realm
        self.nonce = nonce
        opaque = parameters["opaque"]
        self.algorithm = algorithm
        offersAuthQOP = (parameters["qop"] ?? "").split(separator: ",").contains { $0.trimmingSIPWhitespace().lowercased() == "auth" }
        stale = parameters["stale"]?.lowercased() == "true"
    }

    /// `name=value` and `name="value"` pairs separated by commas, names lower-cased.
    static func parameters(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for item in SIPHeaders.splitList(text) {
            let pair = item.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            var value = pair[1].trimmingSIPWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            result[pair[0].trimmingSIPWhitespace().lowercased()] = value
        }
        return result
    }
}

/// The answer to a ``DigestChallenge``: the `Authorization` or `Proxy-Authorization` value.
public struct DigestCredentials: Sendable {
    /// The user name.
    public var username: String
    /// The password.
    public var password: String

    /// Credentials for `username`.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// The response digest (RFC 2617 §3.2.2.1, RFC 7616 §3.4.1): with qop=auth,
    /// H(H(A1):nonce:nc:cnonce:auth:H(A2)), else H(H(A1):nonce:H(A2)), where
    /// A1 = user:realm:password and A2 = method:uri.
    public func response(
        to challenge: DigestChallenge, method: String, uri: String, cnonce: String, nonceCount: UInt32
    ) -> String {
        let hash = challenge.algorithm.hexDigest
        let a1 = hash("\(username):\(challenge.realm):\(password)")
        let a2 = hash("\(method):\(uri)")
        if challenge.offersAuthQOP {
            return hash("\(a1):\(challenge.nonce):\(Self.nonceCountText(nonceCount)):\(cnonce):auth:\(a2)")
        }
        return hash("\(a1):\(challenge.nonce):\(a2)")
    }

    /// The `Authorization` header value answering `challenge` for a request.
    public func authorization(
        for challenge: DigestChallenge, method: String, uri: String, cnonce: String, nonceCount: UInt32 = 1
    ) -> String {
        let digest = response(to: challenge, method: method, uri: uri, cnonce: cnonce, nonceCount: nonceCount)
        var value = "Digest username=\"\(username)\", realm=\"\(challenge.realm)\", nonce=\"\(challenge.nonce)\", uri=\"\(uri)\", "
        value += "response=\"\(digest)\", algorithm=\(challenge.algorithm.rawValue)"
        if challenge.offersAuthQOP { value += ", qop=auth, nc=\(Self.nonceCountText(nonceCount)), cnonce=\"\(cnonce)\"" }
        if let opaque = challenge.opaque { value += ", opaque=\"\(opaque)\"" }
        return value
    }

    private static func nonceCountText(_ count: UInt32) -> String {
        let hex = String(count, radix: 16)
        return String(repeating: "0", count: max(0, 8 - hex.count)) + hex
    }
}
