#!/usr/bin/env bash
# Makes the speech the jitter benchmark scores buffers with (`bench jitter --audio …`):
#   make_bench_speech.sh DIR
# writes into DIR, 8 kHz 16-bit mono, about 30 s each:
#   us-male.wav      espeak-ng en-us+m3 at 150 words/min
#   gb-female.wav    espeak-ng en-gb+f2 at 185 words/min, other sentences
#   us-male-babble20.wav, gb-female-babble20.wav
#                    the same at 20 dB SNR against babble: five other espeak-ng voices
#                    (de, fr, en-us+f4, en-gb+m1, es) talking at once, looped
# Needs espeak-ng and sox (scripts/install-deps.sh --test).
set -euo pipefail
out=${1:?usage: make_bench_speech.sh DIR}
source "$(dirname "$0")/speech_workspace.sh" make_bench_speech.sh "$out"
a="The birch canoe slid on the smooth planks. Glue the sheet to the dark blue background. \
It is easy to tell the depth of a well. These days a chicken leg is a rare dish. \
Rice is often served in round bowls. The juice of lemons makes fine punch. \
The box was thrown beside the parked truck. The hogs were fed chopped corn and garbage. \
Four hours of steady work faced us. A large size in stockings is hard to sell."
b="The boy was there when the sun rose. A rod is used to catch pink salmon. \
The source of the huge river is the clear spring. Kick the ball straight and follow through. \
Help the woman get back to her feet. A pot of tea helps to pass the evening. \
Smoky fires lack flame and heat. The soft cushion broke the man's fall. \
The salt breeze came across from the sea. The girl at the booth sold fifty bonds."
espeak-ng -v en-us+m3 -s 150 -w "$work/a.wav" "$a"
espeak-ng -v en-gb+f2 -s 185 -w "$work/b.wav" "$b"
sox "$work/a.wav" -r 8000 -c 1 -b 16 "$out/us-male.wav" norm -3
sox "$work/b.wav" -r 8000 -c 1 -b 16 "$out/gb-female.wav" norm -3
# Babble: five talkers reading other sentences in other voices, summed.
i=0
for voice in de fr en-us+f4 en-gb+m1 es; do
    espeak-ng -v "$voice" -s 160 -w "$work/t$i.wav" "$b $a"
    sox "$work/t$i.wav" -r 8000 -c 1 -b 16 "$work/n$i.wav" norm -6
    i=$((i + 1))
done
sox -m "$work"/n?.wav "$work/babble.wav" norm -3
for name in us-male gb-female; do
    speech="$out/$name.wav"
    length=$(soxi -D "$speech")
    sox "$work/babble.wav" "$work/babble-$name.wav" repeat 3 trim 0 "$length"
    # Scale the babble to 20 dB below the speech's RMS level.
    speech_rms=$(sox "$speech" -n stat 2>&1 | awk '/RMS +amplitude/ {print $3}')
    babble_rms=$(sox "$work/babble-$name.wav" -n stat 2>&1 | awk '/RMS +amplitude/ {print $3}')
    gain=$(python3 -c "print($speech_rms / $babble_rms / 10)")
    sox -m "$speech" -v "$gain" "$work/babble-$name.wav" -b 16 "$out/$name-babble20.wav"
done
