#!/usr/bin/env python3
"""Records real SDP offers and answers of baresip and Linphone on 127.0.0.1 into
Tests/Fixtures/sdp (see its README.md). Each peer runs with a throw-away configuration
and a timeout; a minimal SIP endpoint here receives the peer's INVITE (its offer, then
refused with 488) or sends the peer an INVITE with a fixed offer (its answer in the 200 OK,
then ACK and BYE). Usage: scripts/capture-sdp-fixtures.py [OUTPUT-DIR]"""
import os, random, shutil, socket, subprocess, sys, tempfile, time

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "Tests", "Fixtures", "sdp")
HOST = "127.0.0.1"


def sip_body(message):
    head, _, body = message.partition("\r\n\r\n")
    return head, body


def header(head, name):
    for line in head.split("\r\n"):
        if line.lower().startswith(name.lower() + ":"):
            return line.split(":", 1)[1].strip()
    return ""


def response(request_head, status, extra="", body=""):
    lines = [f"SIP/2.0 {status}"]
    for name in ("Via", "From", "To", "Call-ID", "CSeq"):
        value = header(request_head, name)
        if name == "To" and "tag=" not in value:
            value += ";tag=fixture"
        lines.append(f"{name}: {value}")
    if extra:
        lines.append(extra)
    lines.append(f"Content-Length: {len(body.encode())}")
    return "\r\n".join(lines) + "\r\n\r\n" + body


def receive_offer(sock, timeout):
    """Waits for an INVITE, answers 488, returns its SDP."""
    sock.settimeout(timeout)
    deadline = time.time() + timeout
    while time.time() < deadline:
        data, peer = sock.recvfrom(65535)
        text = data.decode(errors="replace")
        head, body = sip_body(text)
        if text.startswith("INVITE"):
            sock.sendto(response(head, "488 Not Acceptable Here").encode(), peer)
            return body
        if text.startswith(("OPTIONS", "REGISTER", "SUBSCRIBE", "PUBLISH")):
            sock.sendto(response(head, "200 OK").encode(), peer)
    raise TimeoutError("no INVITE")


def request_answer(sock, peer_port, offer, timeout):
    """Sends an INVITE with `offer` to the peer, returns the SDP of its 200 OK (then ACK, BYE)."""
    local_port = sock.getsockname()[1]
    call_id = f"{random.getrandbits(64):x}@fixture"
    def request(method, cseq, body="", to_tag=""):
        lines = [
            f"{method} sip:fixture@{HOST}:{peer_port} SIP/2.0",
            f"Via: SIP/2.0/UDP {HOST}:{local_port};rport;branch=z9hG4bK{random.getrandbits(48):x}",
            "Max-Forwards: 70",
            f"From: <sip:fixture@{HOST}:{local_port}>;tag=caller",
            f"To: <sip:peer@{HOST}:{peer_port}>" + (f";tag={to_tag}" if to_tag else ""),
            f"Call-ID: {call_id}", f"CSeq: {cseq} {method}",
            f"Contact: <sip:fixture@{HOST}:{local_port}>",
        ]
        if body:
            lines.append("Content-Type: application/sdp")
        lines.append(f"Content-Length: {len(body.encode())}")
        return ("\r\n".join(lines) + "\r\n\r\n" + body).encode()
    sock.sendto(request("INVITE", 1, offer), (HOST, peer_port))
    sock.settimeout(timeout)
    deadline = time.time() + timeout
    while time.time() < deadline:
        data, _ = sock.recvfrom(65535)
        text = data.decode(errors="replace")
        head, body = sip_body(text)
        if text.startswith("SIP/2.0 200") and "INVITE" in header(head, "CSeq"):
            to_tag = header(head, "To").split("tag=")[-1]
            sock.sendto(request("ACK", 1, to_tag=to_tag), (HOST, peer_port))
            time.sleep(0.5)
            sock.sendto(request("BYE", 2, to_tag=to_tag), (HOST, peer_port))
            return body
        if text.startswith("SIP/2.0 4") or text.startswith("SIP/2.0 5") or text.startswith("SIP/2.0 6"):
            raise RuntimeError(text.split("\r\n")[0])
    raise TimeoutError("no 200 OK")


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def baresip(directory, port, extra_config, account_params, commands, seconds):
    open(os.path.join(directory, "config"), "w").write(
        f"sip_listen {HOST}:{port}\naudio_player aufile,/dev/null\naudio_source ausine,440\n"
        "audio_alert aufile,/dev/null\n"
        "module_path /usr/lib/baresip/modules\nmodule g711.so\nmodule opus.so\nmodule aufile.so\n"
        "module ausine.so\nmodule srtp.so\nmodule account.so\n"
        "module_app menu.so\n" + extra_config)
    open(os.path.join(directory, "accounts"), "w").write(f"<sip:fixture@{HOST}>;regint=0{account_params}\n")
    arguments = ["baresip", "-f", directory, "-t", str(seconds)]
    for command in commands:
        arguments += ["-e", command]
    return subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def linphone(directory, port, encryption, commands, auto_answer, seconds):
    config = os.path.join(directory, "linphonerc")
    open(config, "w").write(
        f"[sip]\nsip_port={port}\nuse_ipv6=0\nmedia_encryption={encryption}\n")
    arguments = ["timeout", str(seconds), "linphonec", "-c", config] + (["-a"] if auto_answer else [])
    process = subprocess.Popen(arguments, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               cwd=directory, env={**os.environ, "HOME": directory})
    time.sleep(2)
    for command in [f"ports sip {port}"] + commands:
        process.stdin.write((command + "\n").encode())
        process.stdin.flush()
        time.sleep(0.5)
    return process


OFFER = """v=0\r
o=- 4 1 IN IP4 127.0.0.1\r
s=-\r
c=IN IP4 127.0.0.1\r
t=0 0\r
m=audio 40000 {profile} 111 0 101\r
a=rtpmap:111 opus/48000/2\r
a=fmtp:111 minptime=10;useinbandfec=1\r
a=rtpmap:0 PCMU/8000\r
a=rtpmap:101 telephone-event/8000\r
a=fmtp:101 0-16\r
a=ptime:20\r
a=rtcp-mux\r
{crypto}a=sendrecv\r
"""
# A fixed test key (not a secret: it protects nothing).
CRYPTO = "a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:WVNfX19zZW1jdGwgKCkgewkyMjA7fQp9CnVubGVz\r\n" \
         "a=crypto:2 AES_CM_128_HMAC_SHA1_32 inline:WVNfX19zZW1jdGwgKCkgewkyMjA7fQp9CnVubGVz\r\n"


def run(name, start, exchange):
    directory = tempfile.mkdtemp(prefix="sdp-fixture-")
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind((HOST, 0))
    process = None
    try:
        process = start(directory, sock.getsockname()[1])
        sdp = exchange(sock)
        path = os.path.join(OUT, name)
        open(path, "w", newline="").write(sdp)
        print(f"{name}: {len(sdp.splitlines())} lines")
    except Exception as error:  # report and go on with the others
        print(f"{name}: FAILED {error}", file=sys.stderr)
    finally:
        sock.close()
        if process:
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(directory, ignore_errors=True)


def main():
    os.makedirs(OUT, exist_ok=True)
    dial = lambda port: f"/dial sip:peer@{HOST}:{port}"
    for name, params, extra in [
        ("baresip-offer-avp.sdp", "", ""),
        ("baresip-offer-savp.sdp", ";mediaenc=srtp-mand", ""),
        ("baresip-offer-avp-video.sdp", "", "module fakevideo.so\nmodule vp8.so\n"),
    ]:
        port = free_port()
        run(name, lambda d, p, port=port, params=params, extra=extra: baresip(
            d, port, extra, params, [dial(p)], 10),
            lambda s: receive_offer(s, 8))
    for name, profile, crypto, params in [
        ("baresip-answer-avp.sdp", "RTP/AVP", "", ";answermode=auto"),
        ("baresip-answer-savp.sdp", "RTP/SAVP", CRYPTO, ";answermode=auto;mediaenc=srtp-mand"),
    ]:
        port = free_port()
        run(name, lambda d, p, port=port, params=params: baresip(d, port, "", params, [], 10),
            lambda s, port=port, profile=profile, crypto=crypto: (time.sleep(1.5), request_answer(
                s, port, OFFER.format(profile=profile, crypto=crypto), 8))[1])
    for name, encryption in [("linphone-offer-avp.sdp", "none"), ("linphone-offer-savp.sdp", "srtp")]:
        port = free_port()
        run(name, lambda d, p, port=port, encryption=encryption: linphone(
            d, port, encryption, [f"call sip:peer@{HOST}:{p}"], False, 12),
            lambda s: receive_offer(s, 10))
    for name, profile, crypto, encryption in [
        ("linphone-answer-avp.sdp", "RTP/AVP", "", "none"),
        ("linphone-answer-savp.sdp", "RTP/SAVP", CRYPTO, "srtp"),
    ]:
        port = free_port()
        run(name, lambda d, p, port=port, encryption=encryption: linphone(d, port, encryption, [], True, 12),
            lambda s, port=port, profile=profile, crypto=crypto: request_answer(
                s, port, OFFER.format(profile=profile, crypto=crypto), 8))


if __name__ == "__main__":
    main()
