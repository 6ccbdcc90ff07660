import TestSupport

/// Independent checks of a call's wire capture: tshark reads it, and pylibsrtp decrypts every
/// RTP packet with the keys of the SDP it carries.
enum WireCaptureCheck {
    /// The RTP stream lines of `tshark -z rtp,streams` (the capture's SIP/SDP names the streams).
    static func tsharkStreams(_ path: String) throws -> [Substring] {
        let output = try ExternalTool.run(["tshark", "-n", "-q", "-r", path, "-z", "rtp,streams"]).standardOutput
        return output.split(separator: "\n").filter { $0.contains("127.0.0.1") }
    }

    /// `(decrypted, failed)`: the RTP packets pylibsrtp unprotected with the `a=crypto` key of
    /// the party announced at the port they leave the relay from, and those it refused.
    static func pylibsrtpDecryption(_ path: String) throws -> (decrypted: Int, failed: Int) {
        let output = try ExternalTool.run(["python3", "-c", script, path]).standardOutput
        let numbers = output.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard numbers.count == 2 else { return (0, -1) }
        return (numbers[0], numbers[1])
    }

    /// A classic little-endian pcap of Ethernet/IPv4/UDP frames, as ``WireCapture`` writes it.
    private static let script = """
        import base64, re, struct, sys, pylibsrtp
        data = open(sys.argv[1], 'rb').read()
        offset, datagrams = 24, []
        while offset + 16 <= len(data):
            length = struct.unpack('<IIII', data[offset:offset + 16])[2]
            frame = data[offset + 16:offset + 16 + length]
            offset += 16 + length
            udp = frame[14 + (frame[14] & 15) * 4:]
            datagrams.append((struct.unpack('>H', udp[:2])[0], udp[8:]))
        keys = {}
        for port, payload in datagrams:
            if port == 5060:
                text = payload.decode()
                media = re.search(r'^m=audio (\\d+)', text, re.M)
                crypto = re.search(r'a=crypto:\\d+ (\\S+) inline:([A-Za-z0-9+/=]+)', text)
                keys[int(media.group(1))] = (crypto.group(1), base64.b64decode(crypto.group(2)))
        sessions, decrypted, failed = {}, 0, 0
        for port, payload in datagrams:
            if port == 5060 or len(payload) < 12 or 192 <= payload[1] <= 223:
                continue
            if port not in sessions:
                suite, key = keys[port]
                profile = getattr(pylibsrtp.Policy, 'SRTP_PROFILE_' + suite)
                policy = pylibsrtp.Policy(key=key, ssrc_type=pylibsrtp.Policy.SSRC_ANY_INBOUND, srtp_profile=profile)
                sessions[port] = pylibsrtp.Session(policy=policy)
            try:
                sessions[port].unprotect(payload)
                decrypted += 1
            except Exception:
                failed += 1
        print(decrypted, failed)
        """
}
