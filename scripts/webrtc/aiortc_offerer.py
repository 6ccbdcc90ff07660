#!/usr/bin/env python3
"""aiortc as the offerer of a call to `mediabench webrtc` (issue 16's real-peer test).

Posts its offer to /offer, plays SPEECH.wav, sends RFC 4733 digits (aiortc has no DTMF sender:
audio packets are replaced in place by telephone-event packets with the same SSRC, sequence
numbers and clock, as a real sender does), records what it hears to HEARD.wav and prints its
getStats() figures as JSON.
"""
import argparse, asyncio, json, struct, time, urllib.error, urllib.request
from aiortc import RTCPeerConnection, RTCSessionDescription
from aiortc.contrib.media import MediaPlayer, MediaRecorder

EVENT_PT = 101
DIGIT_CODES = {**{str(d): d for d in range(10)}, '*': 10, '#': 11, 'A': 12, 'B': 13, 'C': 14, 'D': 15}


def add_telephone_event(sdp):
    lines = sdp.split('\r\n')
    out = []
    for line in lines:
        if line.startswith('m=audio '):
            line += f' {EVENT_PT}'
        out.append(line)
        if line.startswith('a=rtpmap:') and 'opus/48000' in line:
            out += [f'a=rtpmap:{EVENT_PT} telephone-event/48000', f'a=fmtp:{EVENT_PT} 0-16']
    return '\r\n'.join(out)


class DigitInjector:
    """Wraps the sender's RTP output: while a digit is queued, audio packets become its events."""

    def __init__(self, transport):
        self.queue = []
        self.state = None
        self.original = transport._send_rtp
        transport._send_rtp = self.send

    async def send(self, data):
        # RTCP (the sender's and the receiver's reports) goes out through the same call: pass it
        # on untouched (RFC 5761 §4: packet types 192-223). Rewritten as an event, an RTCP
        # packet that began a digit gave the digit its start timestamp, and the receiver dropped
        # the whole digit as older than the one before (seen once in CI: "4" of "47").
        if len(data) > 1 and 192 <= data[1] <= 223:
            await self.original(data)
            return
        if self.state is None and self.queue:
            self.state = {'code': self.queue.pop(0), 'packet': 0, 'start': None}
        if self.state is not None:
            data = self.rewrite(bytearray(data))
        await self.original(data)

    def rewrite(self, packet):
        state = self.state
        header = 12 + 4 * (packet[0] & 0x0F)
        if packet[0] & 0x10:
            header += 4 + 4 * struct.unpack('!H', packet[header + 2:header + 4])[0]
        index = state['packet']
        state['packet'] += 1
        if index >= 8:  # 5 event packets (100 ms, last one thrice), then 3 packets of audio as a gap
            if index >= 10:
                self.state = None
            return bytes(packet)
        if state['start'] is None:
            state['start'] = packet[4:8]
        end = index >= 4
        duration = min(index + 1, 5) * 960
        payload = struct.pack('!BBH', state['code'], (0x80 if end else 0) | 10, duration)
        packet[1] = (0x80 if index == 0 else 0) | EVENT_PT
        packet[4:8] = state['start']
        return bytes(packet[:header]) + payload


def post_when_listening(request, seconds=20):
    """Posts `request`, retrying while nothing listens yet (the engine may still be starting)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return json.load(urllib.request.urlopen(request, timeout=10))
        except urllib.error.URLError as error:
            if not isinstance(error.reason, ConnectionRefusedError) or time.monotonic() > deadline:
                raise
            time.sleep(0.2)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--url', required=True)
    parser.add_argument('--speech', required=True)
    parser.add_argument('--heard', required=True)
    parser.add_argument('--seconds', type=float, default=20)
    parser.add_argument('--dtmf', default='')
    parser.add_argument('--wrong-fingerprint', action='store_true')
    args = parser.parse_args()

    pc = RTCPeerConnection()
    player = MediaPlayer(args.speech)
    sender = pc.addTrack(player.audio)
    recorder = MediaRecorder(args.heard)
    pc.on('track', lambda track: recorder.addTrack(track))
    await pc.setLocalDescription(await pc.createOffer())
    sdp = add_telephone_event(pc.localDescription.sdp)
    if args.wrong_fingerprint:
        sdp = '\r\n'.join(line[:-2] + ('00' if not line.endswith('00') else '11') if line.startswith('a=fingerprint:') else line
                          for line in sdp.split('\r\n'))
    body = json.dumps({'sdp': sdp, 'type': 'offer'}).encode()
    request = urllib.request.Request(args.url + '/offer', data=body, headers={'Content-Type': 'application/json'})
    answer = await asyncio.get_running_loop().run_in_executor(None, lambda: post_when_listening(request))
    await pc.setRemoteDescription(RTCSessionDescription(sdp=answer['sdp'], type=answer['type']))
    await recorder.start()
    injector = DigitInjector(sender.transport)
    await asyncio.sleep(1.5)
    injector.queue += [DIGIT_CODES[d] for d in args.dtmf]
    await asyncio.sleep(args.seconds - 1.5)
    stats = {}
    for report in (await pc.getStats()).values():
        kind = type(report).__name__
        if kind == 'RTCInboundRtpStreamStats':
            stats.update(inbound_packets=report.packetsReceived, inbound_lost=report.packetsLost)
        elif kind == 'RTCOutboundRtpStreamStats':
            stats.update(outbound_packets=report.packetsSent)
        elif kind == 'RTCRemoteInboundRtpStreamStats':
            stats.update(remote_inbound_packets_lost=report.packetsLost, round_trip_time=report.roundTripTime, rtcp_rr_received=True)
        elif kind == 'RTCRemoteOutboundRtpStreamStats':
            stats.update(remote_outbound_packets=report.packetsSent, rtcp_sr_received=True)
        elif kind == 'RTCTransportStats':
            stats.update(dtls_state=report.dtlsState)
    stats['connection_state'] = pc.connectionState
    await recorder.stop()
    await pc.close()
    print(json.dumps(stats))


asyncio.run(main())
