#!/usr/bin/env python3
"""Prints the PESQ score of a degraded WAV against a reference WAV (PyPI `pesq`, used only as a
test oracle). Both files must be 16-bit mono at the same rate, 8000 Hz (narrowband, PESQ-NB)
or 16000 Hz (wideband, PESQ-WB).

usage: pesq_score.py REFERENCE.wav DEGRADED.wav nb|wb
"""
import sys
import wave

import numpy
from pesq import pesq


def read(path):
    with wave.open(path, "rb") as file:
        if file.getsampwidth() != 2 or file.getnchannels() != 1:
            sys.exit(f"{path}: need 16-bit mono, got {8 * file.getsampwidth()}-bit, {file.getnchannels()} channel(s)")
        samples = numpy.frombuffer(file.readframes(file.getnframes()), dtype="<i2").astype(numpy.float32)
        return file.getframerate(), samples


def main():
    if len(sys.argv) != 4 or sys.argv[3] not in ("nb", "wb"):
        sys.exit(__doc__)
    rate, reference = read(sys.argv[1])
    degraded_rate, degraded = read(sys.argv[2])
    if rate != degraded_rate:
        sys.exit(f"rates differ: {rate} Hz and {degraded_rate} Hz")
    length = min(len(reference), len(degraded))
    print(f"{pesq(rate, reference[:length], degraded[:length], sys.argv[3]):.3f}")


if __name__ == "__main__":
    main()
