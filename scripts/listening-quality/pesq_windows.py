#!/usr/bin/env python3
"""Scores a whole degraded recording against its reference in consecutive windows and prints the
mean PESQ (PyPI `pesq`, an outside oracle) and each window's, space-separated: what a listener
heard over the whole trace, not its first stretch.

usage: pesq_windows.py REFERENCE.wav DEGRADED.wav nb|wb WINDOW_SAMPLES OFFSET_SAMPLES

Window k compares reference[k·W, (k+1)·W) with degraded[k·W + OFFSET, (k+1)·W + OFFSET) (PESQ
aligns the rest); a last window shorter than a quarter of W is left out. Both files are 16-bit
mono at the same rate, 8000 Hz (nb, P.862.1) or 16000 Hz (wb, P.862.2).
"""
import sys
import wave

import numpy
from pesq import pesq


def read(path):
    with wave.open(path, "rb") as file:
        if file.getsampwidth() != 2 or file.getnchannels() != 1:
            sys.exit(f"{path}: need 16-bit mono")
        samples = numpy.frombuffer(file.readframes(file.getnframes()), dtype="<i2").astype(numpy.float32)
        return file.getframerate(), samples


def main():
    if len(sys.argv) != 6 or sys.argv[3] not in ("nb", "wb"):
        sys.exit(__doc__)
    rate, reference = read(sys.argv[1])
    degraded_rate, degraded = read(sys.argv[2])
    if rate != degraded_rate:
        sys.exit(f"rates differ: {rate} Hz and {degraded_rate} Hz")
    window, offset = int(sys.argv[4]), int(sys.argv[5])
    if offset < 0:
        degraded = numpy.concatenate([numpy.zeros(-offset, dtype=numpy.float32), degraded])
        offset = 0
    scores = []
    start = 0
    while True:
        length = min(window, len(reference) - start, len(degraded) - start - offset)
        if length < max(window // 4, rate):
            break
        ref = reference[start:start + length]
        deg = degraded[start + offset:start + offset + length]
        scores.append(pesq(rate, ref, deg, sys.argv[3]))
        start += window
    if not scores:
        sys.exit("the recording is shorter than a quarter window")
    print(f"{sum(scores) / len(scores):.4f} " + " ".join(f"{score:.3f}" for score in scores))


if __name__ == "__main__":
    main()
