#!/usr/bin/env bash
# Synthesises the test speech with espeak-ng and resamples it with sox.
#   make_speech.sh OUT.wav RATE
# Writes 16-bit mono speech at RATE Hz (8000 for narrowband, 16000 for wideband): a male and a
# female voice reading a few sentences, about 14 s, with short pauses.
set -euo pipefail
out=$1 rate=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
text="The birch canoe slid on the smooth planks. Glue the sheet to the dark blue background. \
It is easy to tell the depth of a well. These days a chicken leg is a rare dish. \
Rice is often served in round bowls. The juice of lemons makes fine punch."
espeak-ng -v en-us+m3 -s 150 -w "$work/male.wav" "$text"
espeak-ng -v en-gb+f2 -s 140 -w "$work/female.wav" "$text"
sox "$work/male.wav" "$work/female.wav" -r "$rate" -c 1 -b 16 "$out" norm -3
