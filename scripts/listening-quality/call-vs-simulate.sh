#!/usr/bin/env bash
# Issue 7's acceptance, end to end (about a minute; not part of `swift test`):
#
#   scripts/listening-quality/call-vs-simulate.sh [MEDIABENCH]
#
# MEDIABENCH defaults to .build/release/mediabench (`swift build -c release` first).
#
# A 30 s `mediabench call` with Opus and AEAD_AES_128_GCM SRTP over the heavy-jitter scenario
# must sound like the same speech through `mediabench simulate` (no sockets): their PESQ-WB
# scores (PyPI `pesq`, a test oracle only) may differ by at most 0.3. The call must also print
# a quality line every second, deliver each DTMF digit exactly once, and leave a wire capture
# that tshark reads and pylibsrtp decrypts with the keys of the SDP the capture carries.
# Prints every figure and exits 1 when a check fails.
#
# The speech is the espeak-ng voices of make_speech.sh at 16 kHz, after a 2 s pause, cut to
# 30 s: the digits are sent 1 s into the call, and while a key is down the sender sends
# telephone events instead of audio, so speech there would be missing from the call only.
# The call's output (48 kHz, Opus' rate in a call) is resampled to 16 kHz; each output is
# lined up with the speech by cross-correlation (the mouth-to-ear delay, up to 2 s) and cut to
# the speech's length, so that both scores cover the same 30 s. Both runs use the scenario's
# seed 1: the relay gives the caller's n-th RTP packet (one per 20 ms, telephone events
# included) the fate of the trace's n-th packet, the one simulate gives frame n.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mediabench=${1:-$(cd "$here/../.." && pwd)/.build/release/mediabench}
seconds=30 scenario=heavy-jitter suite=AEAD_AES_128_GCM digits='123#' tolerance=0.3
[ -x "$mediabench" ] || { echo "no mediabench at $mediabench: run swift build -c release, or name it" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() {  # description command...: runs the command, prints "ok" or "FAILED" before the description
    local description=$1
    shift
    if "$@"; then echo "ok      $description"; else echo "FAILED  $description"; failures=$((failures + 1)); fi
}

"$here/make_speech.sh" "$work/voices.wav" 16000
sox "$work/voices.wav" "$work/speech.wav" pad 2 trim 0 "$seconds"

# The call, each output line stamped with the monotonic time it arrived.
"$mediabench" call --codec opus --srtp "$suite" --scenario "$scenario" --duration "$seconds" --dtmf "$digits" \
    --input "$work/speech.wav" --output "$work/call48k.wav" --capture "$work/wire.pcap" \
    | python3 -u -c 'import sys, time
for line in sys.stdin: print(f"{time.monotonic():.3f} {line}", end="")' >"$work/call.txt"
cut -d' ' -f2- "$work/call.txt"
"$mediabench" simulate --scenario "$scenario" --codec opus --audio "$work/speech.wav" --output "$work/simulated.wav" \
    >"$work/simulate.txt"
sox "$work/call48k.wav" -r 16000 "$work/call.wav"

align() {  # REFERENCE DEGRADED OUT: writes DEGRADED lined up with REFERENCE and cut to its length; prints the lag
    python3 - "$@" <<'EOF'
import sys, wave
import numpy

def read(path):
    with wave.open(path, "rb") as file:
        return file.getframerate(), numpy.frombuffer(file.readframes(file.getnframes()), dtype="<i2")

rate, reference = read(sys.argv[1])
degraded_rate, degraded = read(sys.argv[2])
if rate != degraded_rate:
    sys.exit(f"rates differ: {rate} Hz and {degraded_rate} Hz")
size = 1 << (len(reference) + len(degraded)).bit_length()
spectrum = numpy.fft.rfft(degraded.astype(float), size) * numpy.conj(numpy.fft.rfft(reference.astype(float), size))
correlation = numpy.fft.irfft(spectrum, size)
lag = int(numpy.argmax(correlation[: min(len(degraded), 2 * rate)]))
aligned = numpy.zeros(len(reference), dtype="<i2")
part = degraded[lag : lag + len(reference)]
aligned[: len(part)] = part
with wave.open(sys.argv[3], "wb") as file:
    file.setnchannels(1)
    file.setsampwidth(2)
    file.setframerate(rate)
    file.writeframes(aligned.tobytes())
print(f"{lag * 1000 / rate:.1f}")
EOF
}
call_lag=$(align "$work/speech.wav" "$work/call.wav" "$work/call-aligned.wav")
simulate_lag=$(align "$work/speech.wav" "$work/simulated.wav" "$work/simulated-aligned.wav")
call_score=$(python3 "$here/pesq_score.py" "$work/speech.wav" "$work/call-aligned.wav" wb)
simulate_score=$(python3 "$here/pesq_score.py" "$work/speech.wav" "$work/simulated-aligned.wav" wb)
difference=$(python3 -c "print(f'{$call_score - $simulate_score:+.3f}')")
echo
printf 'PESQ-WB call      %s (aligned by %s ms)\n' "$call_score" "$call_lag"
printf 'PESQ-WB simulate  %s (aligned by %s ms)\n' "$simulate_score" "$simulate_lag"
printf 'difference        %s (at most %s allowed)\n\n' "$difference" "$tolerance"

within_tolerance() { python3 -c "import sys; sys.exit(abs($difference) > $tolerance)"; }
quality_lines_each_second() {  # t=1s … t=Ns, in order, each arriving 0.5–1.5 s after the one before
    python3 - "$work/call.txt" "$seconds" <<'EOF'
import re, sys
stamps = []
for line in open(sys.argv[1]):
    time, _, text = line.partition(" ")
    match = re.match(r"t=(\d+)s MOS ", text)
    if match:
        stamps.append((int(match.group(1)), float(time)))
seconds = [second for second, _ in stamps]
gaps = [later - earlier for (_, earlier), (_, later) in zip(stamps, stamps[1:])]
print(f"        {len(stamps)} quality lines, {min(gaps):.2f}–{max(gaps):.2f} s apart" if gaps else "        no quality lines")
sys.exit(not (seconds == list(range(1, len(seconds) + 1)) and len(seconds) >= int(sys.argv[2]) - 1
              and all(0.5 <= gap <= 1.5 for gap in gaps)))
EOF
}
digits_received_once() { grep -qxF "  DTMF           sent $digits, received $digits" <(cut -d' ' -f2- "$work/call.txt"); }
tshark_reads_capture() {  # the SDP names the two SRTP streams: tshark lists both
    local streams
    streams=$(tshark -n -q -r "$work/wire.pcap" -z rtp,streams 2>/dev/null | grep -c '127\.0\.0\.1') || true
    echo "        tshark lists $streams RTP streams"
    [ "$streams" -eq 2 ]
}
pylibsrtp_decrypts_capture() {  # every RTP packet, with the keys of the SDP in the capture
    local decrypted refused
    read -r decrypted refused < <(python3 "$here/../decrypt_capture.py" "$work/wire.pcap")
    echo "        pylibsrtp decrypted $decrypted RTP packets, refused $refused"
    [ "$decrypted" -gt 0 ] && [ "$refused" -eq 0 ]
}

check "PESQ-WB of the call within $tolerance of simulate's" within_tolerance
check "a quality line each second" quality_lines_each_second
check "DTMF $digits received exactly once each" digits_received_once
check "tshark reads the wire capture" tshark_reads_capture
check "pylibsrtp decrypts the wire capture" pylibsrtp_decrypts_capture
[ "$failures" -eq 0 ]
