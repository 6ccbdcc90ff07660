extension SDESCryptoAttribute {
    /// Parses an SDES crypto attribute line (RFC 4568 §9.1):
    /// `a=crypto:<tag> <crypto-suite> inline:<base64 key||salt>[|lifetime][|MKI:length][;inline:…] [session-params]`.
    ///
    /// The `a=` prefix is optional and a trailing line ending is ignored. Session parameters
    /// are kept as written. Everything else is checked strictly: the tag, the suite, the base64
    /// and its length for the suite, the lifetime and the MKI.
    ///
    /// - Throws: an ``SDESCryptoError`` naming the first field that is wrong.
    public init(parsing line: some StringProtocol) throws(SDESCryptoError) {
        var text = Substring(line).utf8
        while let last = text.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: "\n") {
            text.removeLast()
        }
        if text.starts(with: "a=".utf8) { text.removeFirst(2) }
        guard text.starts(with: "crypto:".utf8) else { throw .notACryptoAttribute }
        text.removeFirst("crypto:".utf8.count)
        try self.init(attributeValue: Substring(text))
    }

    /// Parses the value of an SDES crypto attribute, what follows `a=crypto:` (as an SDP
    /// parser that splits attributes hands it over), with the checks of ``init(parsing:)``.
    ///
    /// - Throws: an ``SDESCryptoError`` naming the first field that is wrong.
    public init(attributeValue value: some StringProtocol) throws(SDESCryptoError) {
        let text = Substring(value).utf8
        let fields = text.split(whereSeparator: isWhiteSpace)
        guard let tagText = fields.first, tagText.startIndex == text.startIndex,
            let tag = parseDecimal(tagText, maximumDigits: 9)
        else { throw .invalidTag(String(decoding: text.prefix(while: { !isWhiteSpace($0) }), as: UTF8.self)) }
        guard fields.count > 1 else { throw .missingField("crypto-suite") }
        let suiteName = String(decoding: fields[1], as: UTF8.self)
        guard let suite = SRTPCryptoSuite(sdesName: suiteName) else { throw .unknownSuite(suiteName) }
        guard fields.count > 2 else { throw .missingField("key parameters") }

        var keys: [SDESKeyParameter] = []
        for (offset, keyText) in fields[2].split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).enumerated() {
            keys.append(try Self.parseKeyParameter(keyText, keyIndex: offset + 1, suite: suite))
        }
        try self.init(
            tag: UInt32(tag), keys: keys,
            sessionParameters: fields.dropFirst(3).map { String(decoding: $0, as: UTF8.self) }
        )
    }

    /// Parses `inline:<base64>[|lifetime][|MKI:length]`.
    private static func parseKeyParameter(
        _ text: Substring.UTF8View.SubSequence, keyIndex: Int, suite: SRTPCryptoSuite
    ) throws(SDESCryptoError) -> SDESKeyParameter {
        let method = text.prefix(while: { $0 != UInt8(ascii: ":") })
        guard method.count < text.count, String(decoding: method, as: UTF8.self).lowercased() == "inline" else {
            throw .unsupportedKeyMethod(keyIndex: keyIndex)
        }
        let keyInfo = text.dropFirst(method.count + 1).split(separator: UInt8(ascii: "|"), omittingEmptySubsequences: false)
        guard keyInfo.count <= 3 else { throw .tooManyKeyFields(keyIndex: keyIndex) }

        var lifetime: SDESKeyLifetime?
        var identifier: SDESMasterKeyIdentifier?
        for field in keyInfo.dropFirst() {
            let fieldText = String(decoding: field, as: UTF8.self)
            if field.contains(UInt8(ascii: ":")) {
                guard identifier == nil, let parsed = SDESMasterKeyIdentifier(sdesText: fieldText) else {
                    throw .invalidMasterKeyIdentifier(keyIndex: keyIndex, text: fieldText)
                }
                identifier = parsed
            } else {
                // The lifetime comes before the MKI (RFC 4568 §9.1).
                guard lifetime == nil, identifier == nil, let parsed = SDESKeyLifetime(sdesText: fieldText) else {
                    throw .invalidLifetime(keyIndex: keyIndex, text: fieldText)
                }
                lifetime = parsed
            }
        }
        let masterKey = try decodeMasterKey(keyInfo[0], keyIndex: keyIndex, suite: suite)
        return SDESKeyParameter(masterKey: masterKey, lifetime: lifetime, masterKeyIdentifier: identifier)
    }

    /// Decodes the base64 key and salt, wiping the temporary copy.
    private static func decodeMasterKey(
        _ base64: Substring.UTF8View.SubSequence, keyIndex: Int, suite: SRTPCryptoSuite
    ) throws(SDESCryptoError) -> SRTPMasterKey {
        var octets: [UInt8]
        do {
            octets = try Base64.decode(base64)
        } catch {
            switch error {
            case .invalidCharacter(let offset): throw .invalidBase64(keyIndex: keyIndex, offset: offset)
            case .invalidLength(let length): throw .invalidBase64(keyIndex: keyIndex, offset: length)
            }
        }
        defer { octets.withUnsafeMutableBytes(wipe) }
        guard let key = try? SRTPMasterKey(suite: suite, keyAndSalt: octets) else {
            throw .wrongKeyLength(keyIndex: keyIndex, suite: suite, expected: suite.keyMaterialLength, actual: octets.count)
        }
        return key
    }
}
