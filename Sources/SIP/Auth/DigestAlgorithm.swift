internal import COpenSSL

/// The digest algorithms of SIP authentication: MD5 (RFC 3261 §22) and SHA-256 (RFC 8760).
public enum DigestAlgorithm: String, Sendable, CaseIterable {
    /// `MD5`, the RFC 2617 default.
    case md5 = "MD5"
    /// `SHA-256` (RFC 7616, RFC 8760).
    case sha256 = "SHA-256"

    /// The algorithm named in a challenge (case-insensitive), or nil for one we do not support
    /// (including the `-sess` variants).
    public init?(challengeName: String) {
        switch challengeName.uppercased() {
        case "MD5": self = .md5
        case "SHA-256": self = .sha256
        default: return nil
        }
    }

    /// The lower-case hexadecimal digest of `text`'s UTF-8 bytes.
    public func hexDigest(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var output = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let type = self == .md5 ? EVP_md5() : EVP_sha256()
        let status = bytes.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                EVP_Digest(input.baseAddress, input.count, out.baseAddress?.assumingMemoryBound(to: UInt8.self), &length, type, nil)
            }
        }
        // EVP_Digest of in-memory bytes with a built-in algorithm cannot fail short of memory exhaustion.
        precondition(status == 1, "EVP_Digest failed")
        return output.prefix(Int(length)).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }
}
