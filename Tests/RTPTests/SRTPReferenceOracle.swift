import Foundation
import TestSupport

/// An independent SRTP implementation in Python on the `cryptography` package's AES, AES-GCM
/// and HMAC-SHA1, written from RFC 3711 §3–4, RFC 6188 and RFC 7714 §8–11.
///
/// It is the bridge from the vectors that give session keys (RFC 3711 B.2, RFC 7714 §16–17),
/// which libsrtp cannot take since it always derives its session keys, to our sessions: the
/// tests first check that the oracle reproduces every published vector, then that our
/// sessions produce exactly the oracle's packets.
///
/// Commands, one per line in the file named by the first argument, each answered by one hex
/// line on standard output:
/// `keystream KEY IV OFFSET COUNT`, `derive MASTER_KEY MASTER_SALT LABEL COUNT`,
/// `aead KEY IV AAD PLAINTEXT`, `protect_rtp|protect_rtcp CIPHER_KEY SALT AUTH_KEY|- TAG_LENGTH ROC|INDEX PACKET`
/// and `master_protect_rtp|master_protect_rtcp SUITE KEY_AND_SALT ROC|INDEX PACKET`.
enum SRTPReferenceOracle {
    /// Runs `commands` in one Python process and returns one octet string per command.
    static func run(_ commands: [String]) throws -> [[UInt8]] {
        let lines = try runPython(script, input: commands.joined(separator: "\n")).split(separator: "\n")
        guard lines.count == commands.count else {
            throw VectorFileError(description: "oracle answered \(lines.count) of \(commands.count) commands")
        }
        return try lines.map { line in
            guard let bytes = [UInt8](hex: line) else { throw VectorFileError(description: "oracle wrote '\(line)'") }
            return bytes
        }
    }

    static let script = #"""
        import hashlib, hmac, sys
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        SUITES = {  # name: (key, salt, auth key, RTP tag, RTCP tag, AEAD)
            "AES_CM_128_HMAC_SHA1_80": (16, 14, 20, 10, 10, False),
            "AES_CM_128_HMAC_SHA1_32": (16, 14, 20, 4, 10, False),
            "AES_256_CM_HMAC_SHA1_80": (32, 14, 20, 10, 10, False),
            "AES_256_CM_HMAC_SHA1_32": (32, 14, 20, 4, 10, False),
            "AEAD_AES_128_GCM": (16, 12, 0, 16, 16, True),
            "AEAD_AES_256_GCM": (32, 12, 0, 16, 16, True),
        }

        def xor(a, b):
            return bytes(x ^ y for x, y in zip(a, b))

        def keystream(key, iv, offset, count):
            encryptor = Cipher(algorithms.AES(key), modes.CTR(iv)).encryptor()
            return encryptor.update(bytes(offset + count))[offset:]

        def derive(master_key, master_salt, label, count):
            salt = master_salt.ljust(14, b"\0")  # a 12-octet AEAD salt is right-padded (libsrtp)
            x = bytearray(salt)
            x[7] ^= label
            return keystream(master_key, bytes(x) + b"\0\0", 0, count)

        def header_length(packet):
            length = 12 + 4 * (packet[0] & 0x0F)
            if packet[0] & 0x10:
                length += 4 + 4 * int.from_bytes(packet[length + 2:length + 4], "big")
            return length

        def protect_rtp(cipher_key, salt, auth_key, tag_length, roc, packet):
            h = header_length(packet)
            ssrc, seq = packet[8:12], packet[2:4]
            if auth_key is None:
                iv = xor(b"\0\0" + ssrc + roc.to_bytes(4, "big") + seq, salt)
                return packet[:h] + AESGCM(cipher_key).encrypt(iv, packet[h:], packet[:h])
            index = (roc << 16) | int.from_bytes(seq, "big")
            iv = xor(salt + b"\0\0", bytes(4) + ssrc + (index << 16).to_bytes(8, "big"))
            encrypted = packet[:h] + xor(packet[h:], keystream(cipher_key, iv, 0, len(packet) - h))
            tag = hmac.new(auth_key, encrypted + roc.to_bytes(4, "big"), hashlib.sha1).digest()[:tag_length]
            return encrypted + tag

        def protect_rtcp(cipher_key, salt, auth_key, tag_length, index, packet):
            ssrc = packet[4:8]
            trailer = (0x80000000 | index).to_bytes(4, "big")
            if auth_key is None:
                iv = xor(b"\0\0" + ssrc + b"\0\0" + index.to_bytes(4, "big"), salt)
                return packet[:8] + AESGCM(cipher_key).encrypt(iv, packet[8:], packet[:8] + trailer) + trailer
            iv = xor(salt + b"\0\0", bytes(4) + ssrc + (index << 16).to_bytes(8, "big"))
            encrypted = packet[:8] + xor(packet[8:], keystream(cipher_key, iv, 0, len(packet) - 8)) + trailer
            return encrypted + hmac.new(auth_key, encrypted, hashlib.sha1).digest()[:tag_length]

        def session_keys(suite, key_and_salt, rtcp):
            key_length, salt_length, auth_length, rtp_tag, rtcp_tag, aead = SUITES[suite]
            master_key, master_salt = key_and_salt[:key_length], key_and_salt[key_length:]
            base = 3 if rtcp else 0
            cipher_key = derive(master_key, master_salt, base, key_length)
            auth_key = None if aead else derive(master_key, master_salt, base + 1, auth_length)
            salt = derive(master_key, master_salt, base + 2, salt_length)
            return cipher_key, salt, auth_key, rtcp_tag if rtcp else rtp_tag

        def hexes(words):
            return [None if w == "-" else bytes.fromhex(w) for w in words]

        for line in open(sys.argv[1]):
            command, *words = line.split()
            if command == "keystream":
                key, iv = hexes(words[:2])
                out = keystream(key, iv, int(words[2]), int(words[3]))
            elif command == "derive":
                key, salt = hexes(words[:2])
                out = derive(key, salt, int(words[2]), int(words[3]))
            elif command == "aead":
                key, iv, aad, plaintext = hexes(words)
                out = AESGCM(key).encrypt(iv, plaintext, aad)
            elif command in ("protect_rtp", "protect_rtcp"):
                cipher_key, salt, auth_key = hexes(words[:3])
                function = protect_rtp if command == "protect_rtp" else protect_rtcp
                out = function(cipher_key, salt, auth_key, int(words[3]), int(words[4]), bytes.fromhex(words[5]))
            elif command in ("master_protect_rtp", "master_protect_rtcp"):
                rtcp = command == "master_protect_rtcp"
                function = protect_rtcp if rtcp else protect_rtp
                out = function(*session_keys(words[0], bytes.fromhex(words[1]), rtcp), int(words[2]), bytes.fromhex(words[3]))
            else:
                sys.exit("unknown command " + command)
            print(out.hex())
        """#
}
