#!/usr/bin/env bash
# A longer call between `mediabench webrtc` and aiortc than the default test run makes, scored
# both ways with aligned PESQ-WB. Everything binds to 127.0.0.1; every process has a timeout.
#   scripts/webrtc/long-call.sh [SECONDS] [PORT]      (default 120 s, port 18480)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-120}
port=${2:-18480}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build -c release --product mediabench >&2
# Speech for the whole call: espeak-ng sentences repeated, after 2 s of silence (the digits go there).
timeout 30 espeak-ng -w "$work/raw.wav" "The birch canoe slid on the smooth planks. Glue the sheet to the dark blue background. \
It is easy to tell the depth of a well. These days a chicken leg is a rare dish. Rice is often served in round bowls."
timeout 60 sox "$work/raw.wav" -r 48000 -b 16 "$work/raw48.wav"
timeout 60 sox -n -r 48000 -c 1 -b 16 "$work/silence.wav" trim 0 2
repeats=$(( seconds / 12 + 1 ))
timeout 60 sox "$work/silence.wav" $(for _ in $(seq "$repeats"); do echo "$work/raw48.wav"; done) "$work/speech.wav" trim 0 "$seconds"

timeout $(( seconds + 60 )) .build/release/mediabench webrtc --listen "127.0.0.1:$port" --input "$work/speech.wav" \
    --output "$work/engine-heard.wav" --duration "$seconds" --dtmf 159 --format json > "$work/summary.json" &
engine=$!
timeout $(( seconds + 60 )) python3 scripts/webrtc/aiortc_offerer.py --url "http://127.0.0.1:$port" --speech "$work/speech.wav" \
    --heard "$work/aiortc-heard.wav" --seconds $(( seconds + 2 )) --dtmf 47 > "$work/aiortc.json"
wait "$engine"
echo "engine summary:"; cat "$work/summary.json"
echo "aiortc stats:"; cat "$work/aiortc.json"
echo -n "aiortc -> engine: "; timeout 300 python3 scripts/webrtc/pesq_aligned.py "$work/speech.wav" "$work/engine-heard.wav"
echo -n "engine -> aiortc: "; timeout 300 python3 scripts/webrtc/pesq_aligned.py "$work/speech.wav" "$work/aiortc-heard.wav"
