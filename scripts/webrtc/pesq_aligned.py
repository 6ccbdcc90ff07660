#!/usr/bin/env python3
"""PESQ-WB (P.862.2) of DEGRADED against REFERENCE after aligning them by cross-correlation.

Both files are mixed to mono and resampled to 16 kHz; the degraded signal is shifted by the lag
that maximises the cross-correlation, both are cut to their overlap, and `pesq` scores it.
Prints {"pesq_wb": …, "lag_ms": …}.
"""
import json, sys
import numpy as np
from scipy.io import wavfile
from scipy.signal import resample_poly, correlate
from pesq import pesq


def load(path):
    rate, data = wavfile.read(path)
    data = data.astype(np.float64)
    if data.ndim > 1:
        data = data.mean(axis=1)
    return resample_poly(data, 16000, rate) if rate != 16000 else data


reference, degraded = load(sys.argv[1]), load(sys.argv[2])
correlation = correlate(degraded, reference, mode='full', method='fft')
lag = int(np.argmax(correlation)) - (len(reference) - 1)
if lag >= 0:
    degraded = degraded[lag:]
else:
    reference = reference[-lag:]
length = min(len(reference), len(degraded))
reference, degraded = reference[:length], degraded[:length]
score = pesq(16000, reference.astype(np.float32) / 32768, degraded.astype(np.float32) / 32768, 'wb')
print(json.dumps({'pesq_wb': round(float(score), 3), 'lag_ms': round(lag / 16.0, 1), 'seconds': round(length / 16000, 2)}))
