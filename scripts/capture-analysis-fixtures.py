#!/usr/bin/env python3
"""Records calls between real softphones on 127.0.0.1 into Tests/Fixtures/captures (see
CATALOG.md there): baresip and Linphone with SDES SRTP, captured by tshark on the loopback
interface with a port filter, every process under a timeout.

  baresip-srtp-srtcp.pcap     baresip -> baresip, SRTP-mandatory, AES_CM_128_HMAC_SHA1_80,
                              RTCP on its own port (SRTCP), speech both ways, DTMF 1 2 3
  linphone-srtp-sha1-32.pcap  Linphone -> Linphone, the callee restricted to
                              AES_CM_128_HMAC_SHA1_32 (the offer's second tag is accepted)
  baresip-one-side-srtp.pcap  baresip (SRTP) -> baresip (plain, no srtp module): the
                              answerer sends plain RTP with DTMF 4 5 6
  baresip-relay-60ms.pcap     baresip -> UDP relay adding 30 ms each way -> baresip,
                              captured at the caller only (the relay's far side is filtered out)

Usage: scripts/capture-analysis-fixtures.py [OUTPUT-DIR] [NAME…]
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

HOST = "127.0.0.1"
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "Tests", "Fixtures", "captures")
ONLY = set(sys.argv[2:])


def speech(directory, rate=8000):
    path = os.path.join(directory, "speech.wav")
    raw = path + ".raw.wav"
    text = ("The birch canoe slid on the smooth planks. Glue the sheet to the dark blue background. "
            "It is easy to tell the depth of a well. These days a chicken leg is a rare dish.")
    subprocess.run(["espeak-ng", "-v", "en-us", "-w", raw, text], check=True, timeout=60)
    subprocess.run(["sox", raw, "-r", str(rate), "-c", "1", "-b", "16", path, "repeat", "3"], check=True, timeout=60)
    return path


def capture(path, ports, seconds):
    expression = " or ".join(f"udp portrange {low}-{high}" for low, high in ports)
    process = subprocess.Popen(["timeout", str(seconds), "tshark", "-i", "lo", "-f", expression, "-w", path, "-q"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # tshark says "Capturing on 'Loopback: lo'" once it captures (slow on a loaded machine).
    deadline = time.time() + 30
    line = b""
    while time.time() < deadline and b"Capturing on" not in line:
        line = process.stderr.readline()
        if not line and process.poll() is not None:
            raise RuntimeError("tshark did not start")
    threading.Thread(target=process.stderr.read, daemon=True).start()
    time.sleep(0.5)
    return process


def baresip(directory, name, sip_port, rtp_low, control_port, account, audio, modules, seconds):
    home = os.path.join(directory, name)
    os.makedirs(home, exist_ok=True)
    module_lines = "".join(f"module {module}.so\n" for module in modules)
    open(os.path.join(home, "config"), "w").write(
        f"sip_listen {HOST}:{sip_port}\nnet_interface {HOST}\nsip_transports udp\n"
        f"audio_player aufile,{os.path.join(home, 'heard.wav')}\naudio_source aufile,{audio}\n"
        "audio_alert aufile,/dev/null\n"
        f"rtp_ports {rtp_low}-{rtp_low + 9}\nrtcp_mux no\n"
        "module_path /usr/lib/baresip/modules\n" + module_lines +
        "module account.so\nmodule_app menu.so\nmodule ctrl_tcp.so\n"
        f"ctrl_tcp_listen {HOST}:{control_port}\n")
    open(os.path.join(home, "accounts"), "w").write(f"<sip:{name}@{HOST}:{sip_port}>;regint=0{account}\n")
    return subprocess.Popen(["baresip", "-f", home, "-t", str(seconds)], stdin=subprocess.DEVNULL,
                            stdout=open(os.path.join(home, "log"), "w"), stderr=subprocess.STDOUT,
                            start_new_session=True)


def control(port, command, params=""):
    message = json.dumps({"command": command, "params": params, "token": "t"}).encode()
    try:
        with socket.create_connection((HOST, port), timeout=3) as connection:
            connection.sendall(str(len(message)).encode() + b":" + message + b",")
            connection.recv(4096)
    except OSError as error:
        print(f"control {port} {command}: {error}", file=sys.stderr)


class DelayedPath(threading.Thread):
    """A SIP proxy and a media relay between caller and callee that delays all media by
    `delay` seconds each way. SIP from the caller (to PROXY_PORT) goes to the callee and back,
    with each SDP's media ports moved by +1000 onto relay sockets (the port's digit count stays,
    so Content-Length holds) and the Via pointed at the proxy. A packet reaching relay port
    P + 1000 leaves, `delay` later, from the relay port facing its receiver, so that each side
    sees symmetric RTP."""

    def __init__(self, delay, seconds, caller_sip, callee_sip, proxy_sip, media_ports):
        super().__init__(daemon=True)
        self.delay, self.deadline = delay, time.time() + seconds
        self.caller_sip, self.callee_sip = caller_sip, callee_sip
        self.proxy = self.bind(proxy_sip)
        self.relays = {port + 1000: self.bind(port + 1000) for port in media_ports}
        self.peers = {}  # relay port -> real endpoint announced behind it
        self.lateness = []  # seconds each packet left after its due time

    @staticmethod
    def bind(port):
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind((HOST, port))
        return sock

    def rewrite(self, text, from_port):
        for line in text.split("\r\n"):
            if line.startswith("m=audio "):
                port = int(line.split()[1])
                self.peers[port + 1000] = port
                self.peers[port + 1001] = port + 1
                text = text.replace(line, line.replace(f" {port} ", f" {port + 1000} ", 1))
        return text.replace(f"{HOST}:{from_port}", f"{HOST}:{self.proxy.getsockname()[1]}", 1) \
            if text.startswith(("INVITE", "ACK", "BYE")) else text

    def run(self):
        import heapq
        import select
        pending = []
        sockets = [self.proxy] + list(self.relays.values())
        while time.time() < self.deadline:
            # Wake 2 ms early and spin to the due time: the delay stays within a fraction of a
            # millisecond even on a loaded machine.
            timeout = max(0.0, pending[0][0] - time.time() - 0.002) if pending else 0.05
            readable, _, _ = select.select(sockets, [], [], min(timeout, 0.05))
            now = time.time()
            for sock in readable:
                data, peer = sock.recvfrom(65535)
                if sock is self.proxy:
                    text = data.decode(errors="replace")
                    if peer[1] == self.caller_sip:
                        self.proxy.sendto(self.rewrite(text, self.caller_sip).encode(), (HOST, self.callee_sip))
                    else:
                        text = text.replace(f"{HOST}:{self.proxy.getsockname()[1]}", f"{HOST}:{self.caller_sip}", 1)
                        self.proxy.sendto(self.rewrite(text, self.callee_sip).encode(), (HOST, self.caller_sip))
                    continue
                # Media to relay port R comes from the real endpoint E; it goes to the endpoint
                # behind R, from the relay port that stands for E.
                target = self.peers.get(sock.getsockname()[1])
                source = self.relays.get(peer[1] + 1000)
                if target and source:
                    heapq.heappush(pending, (now + self.delay, id(data), source, data, (HOST, target)))
            while pending and pending[0][0] - time.time() < 0.002:
                while pending[0][0] > time.time():
                    pass
                due, _, source, data, target = heapq.heappop(pending)
                source.sendto(data, target)
                self.lateness.append(time.time() - due)


def run_baresip_call(name, directory, audio, caller_account, callee_account, caller_modules, callee_modules,
                     digits_from_callee="", digits_from_caller="", seconds=16, relay_delay=None):
    output = os.path.join(OUT, name)
    caller_sip, callee_sip = 5170, 5172
    if relay_delay is None:
        tap = capture(output, [(5170, 5172), (30000, 30009), (30100, 30109)], seconds + 12)
    else:
        # At the caller only: its SIP and its media ports.
        tap = capture(output, [(5170, 5170), (30000, 30009)], seconds + 12)
    callee = baresip(directory, "callee", callee_sip, 30100, 4501, callee_account, audio, callee_modules, seconds + 4)
    caller = baresip(directory, "caller", caller_sip, 30000, 4500, caller_account, audio, caller_modules, seconds + 4)
    try:
        time.sleep(1.5)
        target = f"sip:callee@{HOST}:{callee_sip};transport=udp"
        if relay_delay is not None:
            path = DelayedPath(relay_delay, seconds + 4, caller_sip, callee_sip, 5171,
                               list(range(30000, 30010)) + list(range(30100, 30110)))
            path.start()
            target = f"sip:callee@{HOST}:5171;transport=udp"
        control(4500, "dial", target)

        time.sleep(4)
        if digits_from_caller:
            for digit in digits_from_caller:
                control(4500, "sndcode", digit)
                time.sleep(0.3)
        if digits_from_callee:
            for digit in digits_from_callee:
                control(4501, "sndcode", digit)
                time.sleep(0.3)
        time.sleep(seconds - 5)
        control(4500, "hangup")
        time.sleep(1)
        control(4500, "quit")
        control(4501, "quit")
    finally:
        for process in (caller, callee):
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                # The phone and its `timeout` wrapper: the whole process group this script made.
                os.killpg(process.pid, signal.SIGKILL)
        tap.wait(seconds + 20)
        if relay_delay is not None:
            late = sorted(path.lateness) or [0]
            print(f"relay: {len(late)} packets, sent after due by median {late[len(late) // 2] * 1e3:.3f} ms, "
                  f"max {late[-1] * 1e3:.3f} ms")
    print(f"{name}: {os.path.getsize(output)} bytes")


def linphone(directory, name, sip_port, rtp_port, suites, commands, auto_answer, seconds):
    home = os.path.join(directory, name)
    os.makedirs(home, exist_ok=True)
    config = os.path.join(home, "linphonerc")
    open(config, "w").write(
        f"[sip]\nsip_port={sip_port}\nuse_ipv6=0\nmedia_encryption=srtp\nmedia_encryption_mandatory=0\n"
        f"srtp_crypto_suites={suites}\n"
        f"[rtp]\naudio_rtp_port={rtp_port}\nbind_address={HOST}\nrtcp_mux=0\n"
        "[sound]\necho_cancellation=0\n"
        "[audio_codec_0]\nmime=PCMU\nrate=8000\nchannels=1\nenabled=1\n"
        "[audio_codec_1]\nmime=opus\nrate=48000\nchannels=2\nenabled=0\n")
    arguments = ["timeout", str(seconds), "linphonec", "-c", config] + (["-a"] if auto_answer else [])
    process = subprocess.Popen(arguments, stdin=subprocess.PIPE, stdout=open(os.path.join(home, "log"), "w"),
                               stderr=subprocess.STDOUT, cwd=home, env={**os.environ, "HOME": home},
                               start_new_session=True)
    time.sleep(3)
    for command in [f"ports sip {sip_port}", "soundcard use files"] + commands:
        process.stdin.write((command + "\n").encode())
        process.stdin.flush()
        time.sleep(0.5)
    return process


def run_linphone_call(name, directory, audio, seconds=14):
    """Linphone calls baresip offering only AES_CM_128_HMAC_SHA1_32 (Linphone as callee
    answers 503 here)."""
    output = os.path.join(OUT, name)
    tap = capture(output, [(5170, 5182), (30100, 30109), (30200, 30203)], seconds + 14)
    codecs = ";audio_codecs=PCMU/8000/1,telephone-event"
    callee = baresip(directory, "callee", 5172, 30100, 4501, codecs + ";mediaenc=srtp-mand;answermode=auto", audio,
                     ["g711", "aufile", "srtp"], seconds + 8)
    time.sleep(1.5)
    caller = linphone(directory, "caller", 5180, 30200, "AES_CM_128_HMAC_SHA1_32",
                      [f"play {audio}", f"call sip:callee@{HOST}:5172"], False, seconds + 8)
    try:
        time.sleep(seconds)
        for command in ("terminate", "quit"):
            try:
                caller.stdin.write((command + "\n").encode())
                caller.stdin.flush()
            except OSError:
                pass
            time.sleep(0.5)
        control(4501, "quit")
    finally:
        for process in (caller, callee):
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                # The phone and its `timeout` wrapper: the whole process group this script made.
                os.killpg(process.pid, signal.SIGKILL)
        tap.wait(seconds + 20)
    print(f"{name}: {os.path.getsize(output)} bytes")


def main():
    os.makedirs(OUT, exist_ok=True)
    directory = tempfile.mkdtemp(prefix="analysis-fixtures-")
    try:
        audio = speech(directory)
        codecs = ";audio_codecs=PCMU/8000/1,telephone-event"
        if not ONLY or "srtp" in ONLY:
            run_baresip_call("baresip-srtp-srtcp.pcap", directory, audio,
                             codecs + ";mediaenc=srtp-mand", codecs + ";mediaenc=srtp-mand;answermode=auto",
                             ["g711", "aufile", "srtp"], ["g711", "aufile", "srtp"], digits_from_caller="123",
                             seconds=16)
        if not ONLY or "oneside" in ONLY:
            run_baresip_call("baresip-one-side-srtp.pcap", directory, audio,
                             codecs + ";mediaenc=srtp", codecs + ";answermode=auto",
                             ["g711", "aufile", "srtp"], ["g711", "aufile"], digits_from_callee="456", seconds=12)
        if not ONLY or "linphone" in ONLY:
            run_linphone_call("linphone-srtp-sha1-32.pcap", directory, audio)
        if not ONLY or "relay" in ONLY:
            run_baresip_call("baresip-relay-60ms.pcap", directory, audio,
                             codecs, codecs + ";answermode=auto", ["g711", "aufile"], ["g711", "aufile"],
                             seconds=16, relay_delay=0.030)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
