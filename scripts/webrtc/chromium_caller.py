#!/usr/bin/env python3
"""Headless Chromium calling `mediabench webrtc` (issue 16's browser test).

Opens http://HOST:PORT/#autotest=SECONDS with a fake microphone playing SPEECH.wav; the page
calls, records what it hears and posts it with its getStats() to /result. Halfway through the
call this script takes a screenshot over the DevTools protocol (--remote-debugging-pipe: JSON
messages separated by NUL on file descriptors 3 and 4), then waits until the page reports that
it has posted its result (or an error; at most SECONDS + 40 s more) and stops Chromium.
"""
import argparse, base64, json, os, subprocess, sys, tempfile, time, urllib.error, urllib.request

parser = argparse.ArgumentParser()
parser.add_argument('--url', required=True)
parser.add_argument('--speech', required=True)
parser.add_argument('--seconds', type=int, default=18)
parser.add_argument('--screenshot', required=True)
parser.add_argument('--screenshot-at', type=float, default=8)
args = parser.parse_args()

deadline = time.monotonic() + 20
while True:  # the engine may still be starting
    try:
        urllib.request.urlopen(args.url + '/stats', timeout=5).read()
        break
    except urllib.error.URLError:
        if time.monotonic() > deadline:
            raise
        time.sleep(0.2)

to_browser_read, to_browser_write = os.pipe()
from_browser_read, from_browser_write = os.pipe()
profile = tempfile.mkdtemp(prefix='chromium-webrtc-')
command = [
    'chromium', '--headless=new', '--no-sandbox', '--disable-gpu', '--allow-loopback-in-peer-connection',
    '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', f'--use-file-for-fake-audio-capture={args.speech}',
    '--autoplay-policy=no-user-gesture-required', '--remote-debugging-pipe', f'--user-data-dir={profile}',
    '--window-size=900,900', f'{args.url}/#autotest={args.seconds}',
]


def child_fds():
    os.dup2(to_browser_read, 3)
    os.dup2(from_browser_write, 4)


browser = subprocess.Popen(command, pass_fds=(3, 4), preexec_fn=child_fds, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.close(to_browser_read)
os.close(from_browser_write)
buffer = b''
next_id = 0


def request(method, params=None, session=None):
    global buffer, next_id
    next_id += 1
    message = {'id': next_id, 'method': method, 'params': params or {}}
    if session:
        message['sessionId'] = session
    os.write(to_browser_write, json.dumps(message).encode() + b'\0')
    while True:
        while b'\0' not in buffer:
            chunk = os.read(from_browser_read, 1 << 20)
            if not chunk:
                raise SystemExit('chromium closed the DevTools pipe')
            buffer += chunk
        raw, buffer = buffer.split(b'\0', 1)
        reply = json.loads(raw)
        if reply.get('id') == next_id:
            if 'error' in reply:
                raise SystemExit(f'{method}: {reply["error"]}')
            return reply['result']


try:
    time.sleep(args.screenshot_at)
    pages = [t for t in request('Target.getTargets')['targetInfos'] if t['type'] == 'page']
    session = request('Target.attachToTarget', {'targetId': pages[0]['targetId'], 'flatten': True})['sessionId']
    shot = request('Page.captureScreenshot', {'format': 'png'}, session)
    with open(args.screenshot, 'wb') as file:
        file.write(base64.b64decode(shot['data']))
    print(json.dumps({'screenshot': args.screenshot, 'title': pages[0].get('title')}))
    sys.stdout.flush()
    # Until the page says it has posted its recording (or failed): a starved browser can take
    # well over the call's length to get there, and stopping it first loses the result.
    deadline = time.monotonic() + args.seconds + 40
    state = ''
    while time.monotonic() < deadline:
        reply = request('Runtime.evaluate', {'expression': "document.getElementById('state').textContent",
                                             'returnByValue': True}, session)
        state = str(reply.get('result', {}).get('value', ''))
        if state == 'autotest done' or state.startswith('error'):
            break
        time.sleep(0.5)
    print(json.dumps({'page_state': state}))
    sys.stdout.flush()
finally:
    browser.terminate()
    try:
        browser.wait(timeout=10)
    except subprocess.TimeoutExpired:
        browser.kill()
