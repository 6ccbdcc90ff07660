#!/usr/bin/env bash
# The interop matrix of issue 12: the engine (our SIP user agent, in process) as caller and as
# callee × {baresip, Linphone} × {PCMU, Opus} × {plain, AES_CM_128_HMAC_SHA1_80,
# AES_CM_128_HMAC_SHA1_32} × rtcp-mux {accepted, declined}: 48 calls on 127.0.0.1, each with
# espeak-ng speech both ways scored by PESQ, DTMF both ways, a hold and a resume, RTCP.
# Prints one Markdown table row per call. Needs scripts/install-deps.sh --test.
#   scripts/interop.sh            # the whole matrix (about 15 minutes)
#   scripts/interop.sh --subset   # six calls: both peers, both roles, SRTP and a declined mux
set -euo pipefail
cd "$(dirname "$0")/.."

matrix=full
case "${1:-}" in
    "") ;;
    --subset) matrix=subset ;;
    *) echo "usage: scripts/interop.sh [--subset]" >&2; exit 2 ;;
esac
for tool in baresip linphonec sipp espeak-ng sox python3; do
    command -v "$tool" >/dev/null || { echo "interop.sh: $tool missing (scripts/install-deps.sh --test)" >&2; exit 1; }
done

swift build --build-tests >&2
log=$(mktemp)
status=0
INTEROP_MATRIX=$matrix timeout 3600 swift test --skip-build --filter 'InteropMatrixTests' >"$log" 2>&1 || status=$?
# The table: the rows the test printed as it went, then its closing copy (header included).
awk '/^INTEROP \| peer/ {table=1} table && /^INTEROP / {sub(/^INTEROP /, ""); print}' "$log"
grep -E '^(✘|✔) (Test|Suite)' "$log" | grep -v 'known issue' | tail -n 20 >&2 || true
rm -f "$log"
exit "$status"
