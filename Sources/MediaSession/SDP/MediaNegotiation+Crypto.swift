import RTP

extension MediaNegotiation {
    /// The keys of an answer to `offered`: the first offered `a=crypto` line whose suite we
    /// have, answered with its tag and our key (RFC 4568 §7.1.2).
    static func answerCrypto(
        offered: MediaDescription, local: LocalAudioCapabilities
    ) throws(MediaNegotiationError) -> NegotiatedCrypto? {
        for remote in offered.crypto {
            guard let ours = local.crypto.first(where: { $0.suite == remote.suite }),
                let answered = try? SDESCryptoAttribute(tag: remote.tag, keys: ours.keys)
            else { continue }
            return NegotiatedCrypto(local: answered, remote: remote)
        }
        let suites = offered.crypto.map(\.suite.sdesName)
        if offered.isSecureProfile { throw .secureProfileWithoutCommonSuite(offeredSuites: suites) }
        if !local.crypto.isEmpty, local.srtpRequired { throw .srtpRequired(offeredSuites: suites) }
        return nil
    }

    /// The keys an answer to our offer agreed on: the answer's line and our offered line with
    /// the same tag (and suite).
    static func appliedCrypto(
        answered: MediaDescription, local: LocalAudioCapabilities
    ) throws(MediaNegotiationError) -> NegotiatedCrypto? {
        guard let chosen = answered.crypto.first else {
            if answered.isSecureProfile || (!local.crypto.isEmpty && local.srtpRequired) {
                throw .srtpRequired(offeredSuites: [])
            }
            return nil
        }
        guard let ours = local.crypto.first(where: { $0.tag == chosen.tag && $0.suite == chosen.suite }) else {
            throw .answerCryptoMismatch(tag: chosen.tag, suite: chosen.suite.sdesName)
        }
        return NegotiatedCrypto(local: ours, remote: chosen)
    }
}
