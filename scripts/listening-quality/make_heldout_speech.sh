#!/usr/bin/env bash
# Makes held-out speech for judging a jitter-buffer change on material the bench does not score
# (`simulate --audio`): other voices, rates and sentences than make_bench_speech.sh, and other
# noises.
#   make_heldout_speech.sh DIR
# writes into DIR, 8 kHz 16-bit mono:
#   scot-m.wav   espeak-ng en-gb-scotland+m1 at 170 words/min (22 s)
#   us-f.wav     espeak-ng en-us+f3 at 135 words/min (30 s)
#   scot-m-pink20, scot-m-babble20, scot-m-car10, us-f-white20, us-f-babble10, us-f-pink10:
#                the same at 20 or 10 dB SNR against sox pink, white or car (brown noise below
#                300 Hz) noise, or a babble of five other espeak-ng voices (it, en-us+m5, pt,
#                en-gb+f4, pl) reading these sentences.
# Needs espeak-ng and sox (scripts/install-deps.sh --test).
set -euo pipefail
out=${1:?usage: make_heldout_speech.sh DIR}
source "$(dirname "$0")/speech_workspace.sh" make_heldout_speech.sh "$out"
c="The stale smell of old beer lingers. It takes heat to bring out the odor. \
A cold dip restores health and zest. The wide road shimmered in the hot sun. \
The lazy cow lay in the cool grass. Lift the square stone over the fence. \
The rope will bind the seven books at once. Hop over the fence and plunge in. \
The friendly gang left the drug store. Mesh wire keeps chicks inside."
d="March the soldiers past the next hill. A cup of sugar makes sweet fudge. \
Place a rosebush near the porch steps. Both lost their lives in the raging storm. \
We talked of the side show in the circus. Use a pencil to write the first draft. \
He ran half way to the hardware store. The clock struck to mark the third period. \
A small creek cut across the field. Cars and busses stalled in snow drifts."
espeak-ng -v en-gb-scotland+m1 -s 170 -w "$work/c.wav" "$c"
espeak-ng -v en-us+f3 -s 135 -w "$work/d.wav" "$d"
sox -R "$work/c.wav" -r 8000 -c 1 -b 16 "$out/scot-m.wav" norm -3
sox -R "$work/d.wav" -r 8000 -c 1 -b 16 "$out/us-f.wav" norm -3
sox -R -n -r 8000 -c 1 -b 16 "$work/pink.wav" synth 60 pinknoise norm -6
sox -R -n -r 8000 -c 1 -b 16 "$work/white.wav" synth 60 whitenoise norm -6
sox -R -n -r 8000 -c 1 -b 16 "$work/car.wav" synth 60 brownnoise lowpass 300 norm -6
i=0
for voice in it en-us+m5 pt en-gb+f4 pl; do
    espeak-ng -v "$voice" -s 165 -w "$work/t$i.wav" "$d $c"
    sox -R "$work/t$i.wav" -r 8000 -c 1 -b 16 "$work/n$i.wav" norm -6
    i=$((i + 1))
done
sox -R -m "$work"/n?.wav "$work/babble-once.wav" norm -3
sox -R "$work/babble-once.wav" "$work/babble.wav" repeat 3
# mix SPEECH NOISE SNR NAME: the noise cut to the speech's length, scaled to SNR dB below its RMS.
mix() {
    sox -R "$work/$2.wav" "$work/cut.wav" trim 0 "$(soxi -D "$out/$1.wav")"
    speech_rms=$(sox -R "$out/$1.wav" -n stat 2>&1 | awk '/RMS +amplitude/ {print $3}')
    noise_rms=$(sox -R "$work/cut.wav" -n stat 2>&1 | awk '/RMS +amplitude/ {print $3}')
    gain=$(python3 -c "print($speech_rms / $noise_rms / 10 ** ($3 / 20))")
    sox -R -m "$out/$1.wav" -v "$gain" "$work/cut.wav" -b 16 "$out/$1-$2$3.wav"
}
mix scot-m pink 20
mix scot-m babble 20
mix scot-m car 10
mix us-f white 20
mix us-f babble 10
mix us-f pink 10
