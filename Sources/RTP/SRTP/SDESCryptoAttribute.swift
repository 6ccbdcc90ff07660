/// An SDES `a=crypto` attribute (RFC 4568): a tag, a crypto-suite, one or more inline keys
/// and the session parameters, parsed from or written to an SDP line.
///
/// `description` redacts the keys; only ``attributeLine`` writes them, because that is what
/// goes into the SDP.
public struct SDESCryptoAttribute: Sendable, Equatable {
    /// The tag that pairs an answer with the offer line it accepts, 0 to 999 999 999.
    public let tag: UInt32
    /// The crypto-suite of every key.
    public let suite: SRTPCryptoSuite
    /// The keys, at least one; when there are several, each has an MKI of one common length.
    public let keys: [SDESKeyParameter]
    /// Session parameters such as `KDR=1` or `UNENCRYPTED_SRTCP`, kept as written and not
    /// interpreted.
    public let sessionParameters: [String]

    /// The largest tag RFC 4568 allows (nine digits).
    public static let maximumTag: UInt32 = 999_999_999

    /// An attribute with one key, for an offer or answer.
    ///
    /// - Throws: ``SDESCryptoError/invalidTag(_:)`` for a tag above ``maximumTag``,
    ///   ``SDESCryptoError/invalidSessionParameter(_:)`` for an empty parameter or one with
    ///   anything but visible ASCII (RFC 4568's `1*(VCHAR)`).
    public init(
        tag: UInt32, key: SDESKeyParameter, sessionParameters: [String] = []
    ) throws(SDESCryptoError) {
        try self.init(tag: tag, keys: [key], sessionParameters: sessionParameters)
    }

    /// An attribute with several keys, each with an MKI of one common length.
    ///
    /// - Throws: as ``init(tag:key:sessionParameters:)``, and
    ///   ``SDESCryptoError/mixedSuites`` or ``SDESCryptoError/inconsistentMasterKeyIdentifiers``.
    public init(
        tag: UInt32, keys: [SDESKeyParameter], sessionParameters: [String] = []
    ) throws(SDESCryptoError) {
        guard tag <= Self.maximumTag else { throw .invalidTag("\(tag)") }
        guard let suite = keys.first?.masterKey.suite else { throw .missingField("key parameters") }
        guard keys.allSatisfy({ $0.masterKey.suite == suite }) else { throw .mixedSuites }
        if keys.count > 1 {
            let lengths = Set(keys.map { $0.masterKeyIdentifier?.length })
            guard lengths.count == 1, !lengths.contains(nil) else { throw .inconsistentMasterKeyIdentifiers }
        }
        // RFC 4568 §9.1: session-param = 1*(VCHAR), visible ASCII only.
        if let bad = sessionParameters.first(where: { $0.isEmpty || !$0.utf8.allSatisfy { (0x21...0x7E).contains($0) } }) {
            throw .invalidSessionParameter(bad)
        }
        self.tag = tag
        self.suite = suite
        self.keys = keys
        self.sessionParameters = sessionParameters
    }

    /// The master key of the first (usually only) key parameter.
    public var masterKey: SRTPMasterKey { keys[0].masterKey }

    /// The SDP line, `a=crypto:<tag> <suite> inline:<key||salt>[|lifetime][|MKI:length]…`,
    /// without a line ending. It contains the keys in base64: send it only over a secure
    /// signalling channel and never log it.
    public var attributeLine: String { "a=crypto:" + attributeValue }

    /// The attribute's value, ``attributeLine`` without `a=crypto:`. It contains the keys too.
    public var attributeValue: String {
        rendered { key in key.withUnsafeBytes(Base64.encode) }
    }

    /// The attribute's value written out with `keyText` standing for each key's base64 text.
    private func rendered(keyText: (SRTPMasterKey) -> String) -> String {
        let keyParameters = keys.map { key in
            var text = "inline:" + keyText(key.masterKey)
            if let lifetime = key.lifetime { text += "|\(lifetime)" }
            if let identifier = key.masterKeyIdentifier { text += "|\(identifier)" }
            return text
        }
        let fields = ["\(tag)", suite.sdesName, keyParameters.joined(separator: ";")] + sessionParameters
        return fields.joined(separator: " ")
    }
}

extension SDESCryptoAttribute: CustomStringConvertible {
    /// The attribute line with each key replaced by `<redacted>`.
    public var description: String {
        "a=crypto:" + rendered { _ in "<redacted>" }
    }
}

/// Whether `character` is SDP white space (space or horizontal tab).
func isWhiteSpace(_ character: UInt8) -> Bool {
    character == UInt8(ascii: " ") || character == UInt8(ascii: "\t")
}
