#!/usr/bin/env python3
"""Writes N small synthetic VoIP captures for testing the archive job: each a SIP INVITE and
200 OK with SDP (its own Call-ID) and a PCMU call both ways, 5 s, with a loss rate and jitter
that vary by file (seeded, so the same N gives the same files), dated over several days.
Usage: generate_captures.py N DIRECTORY"""
import os
import random
import struct
import sys


def udp_frame(source, destination, payload):
    (source_ip, source_port), (destination_ip, destination_port) = source, destination
    udp = struct.pack("!HHHH", source_port, destination_port, 8 + len(payload), 0) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0,
                     bytes(map(int, source_ip.split("."))), bytes(map(int, destination_ip.split("."))))
    return b"\x00\x00\x00\x00\x00\x02" + b"\x00\x00\x00\x00\x00\x01" + b"\x08\x00" + ip + udp


def sip(start_line, call_id, port):
    body = (f"v=0\r\no=- 1 1 IN IP4 10.0.0.1\r\ns=-\r\nc=IN IP4 {'10.0.0.1' if port < 30000 else '10.0.0.2'}\r\n"
            f"t=0 0\r\nm=audio {port} RTP/AVP 0 101\r\na=rtpmap:0 PCMU/8000\r\na=rtpmap:101 telephone-event/8000\r\n")
    head = (f"{start_line}\r\nVia: SIP/2.0/UDP 10.0.0.1:5060\r\nCall-ID: {call_id}\r\nCSeq: 1 INVITE\r\n"
            f"Content-Type: application/sdp\r\nContent-Length: {len(body)}\r\n\r\n")
    return (head + body).encode()


def write(path, index):
    generator = random.Random(index)
    start = 1_700_000_000 + (index % 5) * 86_400 + index * 37
    loss = generator.choice([0, 0, 0.5, 1, 2, 5])
    jitter_ms = generator.choice([0.5, 2, 5, 15])
    caller, callee = ("10.0.0.1", 20_000 + 2 * (index % 100)), ("10.0.0.2", 30_000 + 2 * (index % 100))
    call_id = f"call-{index}@archive.test"
    records = [(start, udp_frame(("10.0.0.1", 5060), ("10.0.0.2", 5060),
                                 sip("INVITE sip:b@10.0.0.2 SIP/2.0", call_id, caller[1]))),
               (start + 0.05, udp_frame(("10.0.0.2", 5060), ("10.0.0.1", 5060),
                                        sip("SIP/2.0 200 OK", call_id, callee[1])))]
    for direction, (source, destination, ssrc) in enumerate([(caller, callee, 0x1000 + index),
                                                             (callee, caller, 0x2000 + index)]):
        for sequence in range(250):
            if generator.random() * 100 < loss:
                continue
            arrival = start + 0.1 + sequence * 0.02 + generator.random() * jitter_ms / 1000 + direction * 0.003
            rtp = struct.pack("!BBHII", 0x80, 0, sequence, sequence * 160, ssrc) + bytes([0xFF]) * 160
            records.append((arrival, udp_frame(source, destination, rtp)))
    records.sort(key=lambda record: record[0])
    with open(path, "wb") as handle:
        handle.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for timestamp, frame in records:
            seconds = int(timestamp)
            handle.write(struct.pack("<IIII", seconds, int((timestamp - seconds) * 1e6), len(frame), len(frame)))
            handle.write(frame)


def main():
    count, directory = int(sys.argv[1]), sys.argv[2]
    os.makedirs(directory, exist_ok=True)
    for index in range(count):
        write(os.path.join(directory, f"call-{index:04d}.pcap"), index)


if __name__ == "__main__":
    main()
