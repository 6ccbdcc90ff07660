import Foundation
import RTP
import TestSupport

/// pylibsrtp (PyPI) as the far end: its own build of libsrtp, on OpenSSL, driven through
/// Python with hex on standard input and output.
///
/// The input, in the file named by the first argument, starts with the line `SUITE KEY_AND_SALT`; each following line is
/// `protect|protect_rtcp|unprotect|unprotect_rtcp PACKET` and is answered by `ok PACKET` or
/// `error MESSAGE` on standard output. Protect runs in a sender session (any outbound SSRC), unprotect in a
/// receiver session (any inbound SSRC), both under the same key.
enum SRTPPylibsrtpPeer {
    /// One peer answer: the packet it produced, or libsrtp's error message.
    typealias Answer = Result<[UInt8], PeerError>

    /// An error the peer reported, with pylibsrtp's message.
    struct PeerError: Error, Equatable {
        let message: String
    }

    /// Starts a peer with `key`, feeds it `commands` and returns one answer per command.
    static func run(key: SRTPMasterKey, _ commands: [(operation: String, packet: [UInt8])]) throws -> [Answer] {
        let header = "\(key.suite.sdesName) \(key.withUnsafeBytes { hexString($0) })"
        let input = ([header] + commands.map { "\($0.operation) \(hexString($0.packet))" }).joined(separator: "\n")
        let lines = try runPython(script, input: input).split(separator: "\n")
        guard lines.count == commands.count else {
            throw VectorFileError(description: "pylibsrtp answered \(lines.count) of \(commands.count)")
        }
        return try lines.map { line throws -> Answer in
            if line.hasPrefix("error ") { return .failure(PeerError(message: String(line.dropFirst(6)))) }
            guard line.hasPrefix("ok "), let packet = [UInt8](hex: line.dropFirst(3)) else {
                throw VectorFileError(description: "pylibsrtp wrote '\(line)'")
            }
            return .success(packet)
        }
    }

    static let script = #"""
        import sys
        from pylibsrtp import Error, Policy, Session

        PROFILES = {
            "AES_CM_128_HMAC_SHA1_80": Policy.SRTP_PROFILE_AES128_CM_SHA1_80,
            "AES_CM_128_HMAC_SHA1_32": Policy.SRTP_PROFILE_AES128_CM_SHA1_32,
            "AES_256_CM_HMAC_SHA1_80": Policy.SRTP_PROFILE_AES128_CM_SHA1_80,  # ciphers replaced below
            "AES_256_CM_HMAC_SHA1_32": Policy.SRTP_PROFILE_AES128_CM_SHA1_80,  # ciphers replaced below
            "AEAD_AES_128_GCM": Policy.SRTP_PROFILE_AEAD_AES_128_GCM,
            "AEAD_AES_256_GCM": Policy.SRTP_PROFILE_AEAD_AES_256_GCM,
        }

        def policy(suite, key, ssrc_type):
            p = Policy(key=key, ssrc_type=ssrc_type, srtp_profile=PROFILES[suite])
            if suite.startswith("AES_256_CM_HMAC_SHA1_"):
                # libsrtp has no profile for AES-256-CM and pylibsrtp declares srtp_crypto_policy_t
                # opaque: write its six int fields (srtp.h order: cipher_type, cipher_key_len,
                # auth_type, auth_key_len, auth_tag_len, sec_serv) as
                # srtp_crypto_policy_set_aes_cm_256_hmac_sha1_80 (SRTCP always, SRTP for _80) and
                # srtp_crypto_policy_set_aes_cm_256_hmac_sha1_32 (SRTP for _32) do.
                from pylibsrtp._binding import ffi
                rtp_tag = 4 if suite.endswith("_32") else 10
                for crypto, tag in ((p._policy.rtp, rtp_tag), (p._policy.rtcp, 10)):
                    fields = ffi.cast("int *", ffi.addressof(crypto))
                    for index, value in enumerate((5, 46, 3, 20, tag, 3)):
                        fields[index] = value
            return p

        lines = open(sys.argv[1]).read().splitlines()
        suite, key = lines[0].split()
        key = bytes.fromhex(key)
        sender = Session(policy(suite, key, Policy.SSRC_ANY_OUTBOUND))
        receiver = Session(policy(suite, key, Policy.SSRC_ANY_INBOUND))
        operations = {
            "protect": sender.protect, "protect_rtcp": sender.protect_rtcp,
            "unprotect": receiver.unprotect, "unprotect_rtcp": receiver.unprotect_rtcp,
        }
        for line in lines[1:]:
            operation, packet = line.split()
            try:
                print("ok", operations[operation](bytes.fromhex(packet)).hex())
            except Error as error:
                print("error", error)
        """#
}
