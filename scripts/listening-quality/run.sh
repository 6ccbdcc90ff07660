#!/usr/bin/env bash
# Listening quality of our codecs, scored with PESQ (PyPI `pesq`, a test oracle only).
#
#   scripts/listening-quality/run.sh [MEDIABENCH]
#
# Makes speech with espeak-ng (make_speech.sh), runs it through
# `mediabench transcode --codec C --input IN.wav --output OUT.wav [--loss P --seed N]` and prints
# one PESQ score per condition. Targets (issue 4): G.711 round trip PESQ-NB >= 3.9; at 5 % random
# loss G.711 with Appendix I PLC beats zero fill and frame repetition; Opus 24 kb/s wideband
# PESQ-WB >= 4.0, and at 5 % loss Opus with FEC beats Opus PLC alone. The concealment method is
# chosen with `--plc appendix-i|repeat|zero`. Tests/MediabenchTests/TranscodeTests.swift runs
# this script and checks every target.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mediabench=${1:-$(cd "$here/../.." && pwd)/.build/release/mediabench}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$here/make_speech.sh" "$work/speech8k.wav" 8000
"$here/make_speech.sh" "$work/speech16k.wav" 16000

score() {  # name reference rate-mode transcode-arguments...
    local name=$1 reference=$2 mode=$3
    shift 3
    "$mediabench" transcode --input "$reference" --output "$work/$name.wav" "$@" >/dev/null
    printf '%-28s %s\n' "$name" "$(python3 "$here/pesq_score.py" "$reference" "$work/$name.wav" "$mode")"
}

score pcmu-clean "$work/speech8k.wav" nb --codec pcmu
score pcma-clean "$work/speech8k.wav" nb --codec pcma
for plc in appendix-i repeat zero; do
    score "pcmu-loss5-$plc" "$work/speech8k.wav" nb --codec pcmu --loss 5 --seed 1 --plc "$plc"
done
score opus24k-wb "$work/speech16k.wav" wb --codec opus:24000
score opus24k-loss5-plc "$work/speech16k.wav" wb --codec opus:24000 --loss 5 --seed 1
score opus24k-loss5-fec "$work/speech16k.wav" wb --codec opus:24000 --loss 5 --seed 1 --fec
