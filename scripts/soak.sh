#!/usr/bin/env bash
# Soak test (not part of scripts/test.sh): one long call through the impairment relay, checking
# that memory stays flat and the delay does not drift.
#   scripts/soak.sh [SECONDS] [SCENARIO]      default: 600 s over drift-fast (±1000 ppm clocks)
#   scripts/soak.sh --device-clock [SECONDS] [PPM]
#                                             default: 600 s between two sound cards at ±300 ppm
#                                             (DeviceClockSkewTests at full length; about
#                                             SECONDS + 5 min of build on a cold tree). Two
#                                             verdicts: drift (the skew measured, no trend in
#                                             the delay the call does not mean to have) and
#                                             scheduling (every underrun after a wake-up later
#                                             than the headroom, counted; none on schedule),
#                                             with the load average before and after.
# Samples the process's resident memory every 5 s, reads the latency from the quality line the
# call prints each second, and fails when memory grows by more than 10 % after the first minute
# beyond the audio the call keeps by design (both directions' received audio, 48 kHz mono
# 16-bit, for the output WAV and the mouth-to-ear measurement), or when the median latency of
# the last minute is more than 20 ms above that of the first.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${1:-} == --device-clock ]]; then
    seconds=${2:-600}
    ppm=${3:-300}
    scripts/install-deps.sh
    swift build --build-tests
    # On a machine saturated by other work the audio thread wakes late: the headroom grows to
    # cover it (up to 50 ms), and an underrun after a wake-up later than that is the machine's,
    # reported with its count; an underrun on schedule or a delay trend is the call's.
    echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
    set +e
    MEDIA_CLOCK_SKEW_SECONDS=$seconds MEDIA_CLOCK_SKEW_PPM=$ppm \
        timeout $((seconds + 300)) swift test --skip-build --filter DeviceClockSkewTests 2>&1 |
        grep -E "^(caller|callee):|✔ Test skewed|✘|↳ [^/]|error"
    status=${PIPESTATUS[0]}
    set -e
    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
    exit "$status"
fi
seconds=${1:-600}
scenario=${2:-drift-fast}
(( seconds >= 120 )) || { echo "soak.sh: needs at least 120 s to compare two minutes" >&2; exit 2; }

scripts/install-deps.sh
swift build -c release --product mediabench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

.build/release/mediabench call --duration "$seconds" --scenario "$scenario" --codec opus \
    --srtp AEAD_AES_128_GCM > "$work/call.log" 2>&1 &
pid=$!
# Sample while the call runs (until its last quality line); the summary that follows
# (mouth-to-ear over the whole recording, the WAV) is one-off work at the end, not a leak.
while kill -0 "$pid" 2>/dev/null && ! grep -q "^t=$((seconds - 1))s " "$work/call.log"; do
    awk '/^VmRSS/ { print $2 }' "/proc/$pid/status" 2>/dev/null >> "$work/rss.kb" || true
    sleep 5
done
wait "$pid" || { cat "$work/call.log"; echo "soak.sh: the call failed" >&2; exit 1; }

python3 - "$work/rss.kb" "$work/call.log" "$seconds" <<'PY'
import re, statistics, sys
rss = [int(line) for line in open(sys.argv[1]) if line.strip()]
latency = {}
for line in open(sys.argv[2]):
    match = re.match(r"t=(\d+)s .*latency (\d+) ms", line)
    if match:
        latency[int(match.group(1))] = int(match.group(2))
seconds = int(sys.argv[3])
first = [v for t, v in latency.items() if 10 <= t < 70]
last = [v for t, v in latency.items() if t >= seconds - 60]
after_minute = rss[12:] or rss
recorded_kb = 2 * 48000 * 2 * (seconds - 60) / 1024
growth = (max(after_minute) - after_minute[0] - recorded_kb) / after_minute[0]
drift = statistics.median(last) - statistics.median(first)
print(f"memory: {after_minute[0]} kB after the first minute, {max(after_minute)} kB at most after it, "
      f"of which {recorded_kb:.0f} kB recorded audio ({growth * 100:+.1f} % beyond it)")
print(f"latency: median {statistics.median(first)} ms in the first minute, {statistics.median(last)} ms in the last ({drift:+.0f} ms)")
failed = growth > 0.10 or drift > 20
print("soak: " + ("FAILED" if failed else "passed"))
sys.exit(1 if failed else 0)
PY
