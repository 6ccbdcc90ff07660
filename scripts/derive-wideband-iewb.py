#!/usr/bin/env python3
"""Derives wideband Ie,wb and Bpl,wb values for a codec by the instrumental method of ITU-T
P.834.1: WB-PESQ (P.862.2) over a speech corpus, per bitrate and random packet loss, MOS-LQO
turned into R on the G.107.1 scale, Ie,wb from the codec's R drop, Bpl,wb fitted to the loss
points.

Corpus: sentences spoken by espeak-ng (several voices), 16 kHz mono.
Codecs (the first argument):
- opus: the system's libopus through ctypes, 16 kHz, 20 ms frames, VOIP application, the
  bitrates below, in-band FEC off; lost frames decoded with the codec's own concealment.
- g722: spandsp's G.722 (ITU-T G.722 SB-ADPCM) through ctypes, 64 kbit/s, 20 ms frames; a lost
  frame plays as silence and the decoder goes on with the state it had (no G.722 Appendix III/IV
  concealment is available here), so its Bpl,wb is that of a receiver without concealment.
Anchor: the clean corpus itself (reference against reference) is the unimpaired wideband
condition, Ie,wb = 0; a condition's Ie,wb is R(anchor) - R(condition).

Writes the table as JSON on standard output. Deterministic (fixed loss seed).

Usage: scripts/derive-wideband-iewb.py opus|g722 [WORKDIR] > docs/CODEC-iewb.json
"""
import ctypes
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import wave

import numpy as np
from pesq import pesq

SENTENCES = [
    "The birch canoe slid on the smooth planks.",
    "Glue the sheet to the dark blue background.",
    "It is easy to tell the depth of a well.",
    "These days a chicken leg is a rare dish.",
    "Rice is often served in round bowls.",
    "The juice of lemons makes fine punch.",
    "The box was thrown beside the parked truck.",
    "The hogs were fed chopped corn and garbage.",
    "Four hours of steady work faced us.",
    "A large size in stockings is hard to sell.",
]
VOICES = ["en-us", "en-gb", "en-us+f3", "en-gb+f2", "en-gb-scotland"]
BITRATES = [12_000, 16_000, 24_000, 32_000, 48_000]
LOSSES = [0.0, 2.0, 5.0, 10.0, 15.0]
RATE = 16_000
FRAME = RATE // 50

OPUS_APPLICATION_VOIP = 2048
OPUS_SET_BITRATE_REQUEST = 4002
OPUS_SET_INBAND_FEC_REQUEST = 4012


def speak(text, voice, path):
    raw = path + ".raw.wav"
    subprocess.run(["espeak-ng", "-v", voice, "-s", "150", "-w", raw, text], check=True, timeout=60)
    subprocess.run(["sox", raw, "-r", str(RATE), "-c", "1", "-b", "16", path, "pad", "0.3", "0.3"],
                   check=True, timeout=60)
    os.remove(raw)


def read(path):
    with wave.open(path) as handle:
        return np.frombuffer(handle.readframes(handle.getnframes()), dtype=np.int16)


def opus_round_trip(library, samples, bitrate, loss_percent, seed):
    error = ctypes.c_int()
    encoder = library.opus_encoder_create(RATE, 1, OPUS_APPLICATION_VOIP, ctypes.byref(error))
    decoder = library.opus_decoder_create(RATE, 1, ctypes.byref(error))
    library.opus_encoder_ctl(encoder, OPUS_SET_BITRATE_REQUEST, ctypes.c_int(bitrate))
    library.opus_encoder_ctl(encoder, OPUS_SET_INBAND_FEC_REQUEST, ctypes.c_int(0))
    padded = np.concatenate([samples, np.zeros((-len(samples)) % FRAME, dtype=np.int16)])
    generator = random.Random(seed)
    packet = (ctypes.c_ubyte * 1500)()
    pcm = (ctypes.c_short * FRAME)()
    output = []
    for start in range(0, len(padded), FRAME):
        frame = np.ascontiguousarray(padded[start:start + FRAME])
        length = library.opus_encode(encoder, frame.ctypes.data_as(ctypes.POINTER(ctypes.c_short)), FRAME, packet, 1500)
        lost = generator.random() * 100 < loss_percent
        if lost:
            decoded = library.opus_decode(decoder, None, 0, pcm, FRAME, 0)
        else:
            decoded = library.opus_decode(decoder, packet, length, pcm, FRAME, 0)
        output.append(np.ctypeslib.as_array(pcm)[:max(decoded, 0)].copy())
    library.opus_encoder_destroy(encoder)
    library.opus_decoder_destroy(decoder)
    return np.concatenate(output)[:len(samples)]


G722_BITRATES = [64_000]


def g722_round_trip(library, samples, bitrate, loss_percent, seed):
    encoder = library.g722_encode_init(None, bitrate, 0)
    decoder = library.g722_decode_init(None, bitrate, 0)
    padded = np.concatenate([samples, np.zeros((-len(samples)) % FRAME, dtype=np.int16)])
    generator = random.Random(seed)
    packet = (ctypes.c_ubyte * FRAME)()
    pcm = (ctypes.c_short * FRAME)()
    output = []
    for start in range(0, len(padded), FRAME):
        frame = np.ascontiguousarray(padded[start:start + FRAME])
        length = library.g722_encode(encoder, packet, frame.ctypes.data_as(ctypes.POINTER(ctypes.c_short)), FRAME)
        if generator.random() * 100 < loss_percent:
            output.append(np.zeros(FRAME, dtype=np.int16))
            continue
        decoded = library.g722_decode(decoder, pcm, packet, length)
        output.append(np.ctypeslib.as_array(pcm)[:max(decoded, 0)].copy())
    library.g722_encode_free(encoder)
    library.g722_decode_free(decoder)
    return np.concatenate(output)[:len(samples)]


def load_g722():
    library = ctypes.CDLL("libspandsp.so.2")
    library.g722_encode_init.restype = ctypes.c_void_p
    library.g722_encode_init.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
    library.g722_decode_init.restype = ctypes.c_void_p
    library.g722_decode_init.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
    library.g722_encode.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_short), ctypes.c_int]
    library.g722_decode.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]
    library.g722_encode_free.argtypes = [ctypes.c_void_p]
    library.g722_decode_free.argtypes = [ctypes.c_void_p]
    return library


def mos_from_r_wb(r):
    """G.107.1: MOS from R on the wideband scale, through R/1.29 in G.107's formula."""
    x = r / 1.29
    if x <= 0:
        return 1.0
    if x >= 100:
        return 4.5
    return 1 + 0.035 * x + x * (x - 60) * (100 - x) * 7e-6


def r_from_mos_wb(mos):
    low, high = 0.0, 129.0
    for _ in range(60):
        middle = (low + high) / 2
        if mos_from_r_wb(middle) < mos:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def fit_bpl(ie, points):
    """Least-squares Bpl for Ie,eff = Ie + (129 - Ie) * Ppl / (Ppl + Bpl) over (Ppl, Ie,eff) points."""
    best = None
    for tenth in range(10, 2000):
        bpl = tenth / 10
        error = sum((ie + (129 - ie) * ppl / (ppl + bpl) - value) ** 2 for ppl, value in points)
        if best is None or error < best[1]:
            best = (bpl, error)
    return best


def load_opus():
    library = ctypes.CDLL("libopus.so.0")
    library.opus_encoder_create.restype = ctypes.c_void_p
    library.opus_decoder_create.restype = ctypes.c_void_p
    library.opus_encoder_ctl.argtypes = [ctypes.c_void_p, ctypes.c_int]
    library.opus_encode.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_short), ctypes.c_int,
                                    ctypes.c_void_p, ctypes.c_int]
    library.opus_decode.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int,
                                    ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
    library.opus_encoder_destroy.argtypes = [ctypes.c_void_p]
    library.opus_decoder_destroy.argtypes = [ctypes.c_void_p]
    return library


def codec_setup(name):
    """The round trip, bitrates and JSON description of codec `name`."""
    if name == "g722":
        library = load_g722()
        return (lambda *arguments: g722_round_trip(library, *arguments)), G722_BITRATES, {
            "library": "spandsp " + subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "libspandsp2"],
                                                   capture_output=True, text=True, timeout=60).stdout,
            "sample_rate": RATE, "frame_ms": 20, "mode": "G.722 SB-ADPCM, 64 kbit/s",
            "loss": "random, per frame, Python random.Random(1000 + file index)",
            "concealment": "none: a lost frame is silence, the decoder keeps its state"}
    library = load_opus()
    version = library.opus_get_version_string
    version.restype = ctypes.c_char_p
    return (lambda *arguments: opus_round_trip(library, *arguments)), BITRATES, {
        "library": version().decode(), "sample_rate": RATE, "frame_ms": 20, "application": "VOIP",
        "fec": False, "loss": "random, per frame, Python random.Random(1000 + file index)",
        "concealment": "opus_decode with no packet"}


def main():
    codec = sys.argv[1] if len(sys.argv) > 1 else ""
    if codec not in ("opus", "g722"):
        sys.exit("usage: derive-wideband-iewb.py opus|g722 [WORKDIR]")
    work = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix=codec + "-iewb-")
    os.makedirs(work, exist_ok=True)
    round_trip, bitrates, description = codec_setup(codec)

    corpus = []
    for index, sentence in enumerate(SENTENCES):
        voice = VOICES[index % len(VOICES)]
        path = os.path.join(work, f"s{index:02d}.wav")
        if not os.path.exists(path):
            speak(sentence, voice, path)
        corpus.append(read(path))

    anchor = float(np.mean([pesq(RATE, clean, clean, "wb") for clean in corpus]))
    r_anchor = r_from_mos_wb(anchor)
    rows = []
    for bitrate in bitrates:
        conditions = []
        for loss in LOSSES:
            scores = [pesq(RATE, clean, round_trip(clean, bitrate, loss, 1000 + index), "wb")
                      for index, clean in enumerate(corpus)]
            mos = float(np.mean(scores))
            conditions.append({"loss_percent": loss, "mos_lqo_wb": round(mos, 4),
                               "ie_eff_wb": round(r_anchor - r_from_mos_wb(mos), 2)})
        ie = conditions[0]["ie_eff_wb"]
        bpl, error = fit_bpl(ie, [(c["loss_percent"], c["ie_eff_wb"]) for c in conditions[1:]])
        rows.append({"bitrate_bps": bitrate, "ie_wb": ie, "bpl_wb": bpl,
                     "fit_rms": round(math.sqrt(error / (len(conditions) - 1)), 2), "conditions": conditions})
        print(f"{bitrate} bit/s: Ie,wb {ie}, Bpl,wb {bpl}", file=sys.stderr)
    json.dump({
        "method": "ITU-T P.834.1 instrumental derivation: WB-PESQ (ITU-T P.862.2, python 'pesq' package) "
                  "MOS-LQO -> R on the G.107.1 scale (MOS(R/1.29) inverted), Ie,wb = R(clean anchor) - R(codec), "
                  "Bpl,wb least-squares fit of Ie,eff,wb = Ie,wb + (129 - Ie,wb) * Ppl / (Ppl + Bpl,wb)",
        "corpus": {"sentences": SENTENCES, "voices": VOICES, "tool": "espeak-ng, sox to 16 kHz mono 16-bit",
                   "anchor_mos_lqo_wb": round(anchor, 4), "anchor_r_wb": round(r_anchor, 2)},
        "codec": description,
        "bitrates": rows,
    }, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
