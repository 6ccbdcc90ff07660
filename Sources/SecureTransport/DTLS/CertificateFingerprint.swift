/// A certificate fingerprint as SDP carries it (RFC 8122 §5): a hash function and the digest of
/// the certificate's DER encoding, written `sha-256 AB:CD:…`.
public struct CertificateFingerprint: Hashable, Sendable, CustomStringConvertible {
    /// The hash functions this library computes.
    public enum Algorithm: String, Hashable, Sendable, CaseIterable {
        /// SHA-256, the one browsers use.
        case sha256 = "sha-256"

        /// The digest length in octets.
        public var digestLength: Int {
            switch self {
            case .sha256: 32
            }
        }
    }

    /// The hash function.
    public let algorithm: Algorithm
    /// The digest of the certificate's DER encoding.
    public let digest: [UInt8]

    /// A fingerprint of `algorithm` with `digest`.
    public init(algorithm: Algorithm, digest: [UInt8]) {
        self.algorithm = algorithm
        self.digest = digest
    }

    /// Parses the value of an `a=fingerprint` attribute, such as `sha-256 AB:CD:…`; the hash name
    /// is case-insensitive, the hex digits either case. Nil for another hash function or a
    /// malformed digest.
    public init?(attributeValue: some StringProtocol) {
        let parts = attributeValue.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, let algorithm = Algorithm(rawValue: parts[0].lowercased()) else { return nil }
        var digest: [UInt8] = []
        for pair in parts[1].split(separator: ":", omittingEmptySubsequences: false) {
            guard pair.count == 2, let byte = UInt8(pair, radix: 16) else { return nil }
            digest.append(byte)
        }
        guard digest.count == algorithm.digestLength else { return nil }
        self.init(algorithm: algorithm, digest: digest)
    }

    /// The value of an `a=fingerprint` attribute: the hash name and upper-case hex pairs.
    public var attributeValue: String {
        "\(algorithm.rawValue) "
            + digest.map { byte in
                let hex = String(byte, radix: 16, uppercase: true)
                return hex.count == 1 ? "0" + hex : hex
            }.joined(separator: ":")
    }

    /// The same text as ``attributeValue``.
    public var description: String { attributeValue }
}
