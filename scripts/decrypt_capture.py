#!/usr/bin/env python3
"""Decrypts the SRTP of a `mediabench call --capture` file with pylibsrtp (PyPI), an SRTP
implementation independent of ours: every RTP packet is unprotected with the `a=crypto` key of
the party whose SDP announced the port the packet leaves the relay from (the capture carries the
call's offer and answer as SIP on port 5060). Prints "DECRYPTED REFUSED" (packet counts).

The capture is a classic little-endian pcap of Ethernet/IPv4/UDP frames, as WireCapture writes it.

usage: decrypt_capture.py CAPTURE.pcap
"""
import base64
import re
import struct
import sys

import pylibsrtp


def datagrams(path):
    """(source port, UDP payload) of every frame."""
    data = open(path, "rb").read()
    offset = 24
    while offset + 16 <= len(data):
        length = struct.unpack("<IIII", data[offset : offset + 16])[2]
        frame = data[offset + 16 : offset + 16 + length]
        offset += 16 + length
        udp = frame[14 + (frame[14] & 15) * 4 :]
        yield struct.unpack(">H", udp[:2])[0], udp[8:]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    packets = list(datagrams(sys.argv[1]))
    keys = {}
    for port, payload in packets:
        if port == 5060:
            text = payload.decode()
            media = re.search(r"^m=audio (\d+)", text, re.M)
            crypto = re.search(r"a=crypto:\d+ (\S+) inline:([A-Za-z0-9+/=]+)", text)
            keys[int(media.group(1))] = (crypto.group(1), base64.b64decode(crypto.group(2)))
    sessions, decrypted, refused = {}, 0, 0
    for port, payload in packets:
        if port == 5060 or len(payload) < 12 or 192 <= payload[1] <= 223:  # SIP, runts, RTCP
            continue
        if port not in sessions:
            suite, key = keys[port]
            profile = getattr(pylibsrtp.Policy, "SRTP_PROFILE_" + suite)
            policy = pylibsrtp.Policy(key=key, ssrc_type=pylibsrtp.Policy.SSRC_ANY_INBOUND, srtp_profile=profile)
            sessions[port] = pylibsrtp.Session(policy=policy)
        try:
            sessions[port].unprotect(payload)
            decrypted += 1
        except pylibsrtp.Error:
            refused += 1
    print(decrypted, refused)


if __name__ == "__main__":
    main()
