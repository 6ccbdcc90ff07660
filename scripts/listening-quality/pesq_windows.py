#!/usr/bin/env python3
"""Scores a whole degraded recording against its reference in consecutive windows and prints the
mean PESQ (PyPI `pesq`, an outside oracle) and each window's, space-separated: what a listener
heard over the whole trace, not its first stretch.

usage: pesq_windows.py REFERENCE.wav DEGRADED.wav nb|wb WINDOW_SAMPLES OFFSET_SAMPLES
       pesq_windows.py --batch REQUESTS.txt JOBS

Window k compares reference[k·W, (k+1)·W) with degraded[k·W + OFFSET, (k+1)·W + OFFSET) (PESQ
aligns the rest); a last window shorter than a quarter of W is left out. Both files are 16-bit
mono at the same rate, 8000 Hz (nb, P.862.1) or 16000 Hz (wb, P.862.2).

With --batch, each line of REQUESTS.txt holds the five arguments of one scoring, tab-separated;
JOBS worker processes score them (one interpreter start for all, instead of one per scoring) and
one line is printed per request, in order: the same line as a single scoring prints, or
`error: MESSAGE`. The scores are those of single scorings, to the digit.
"""
import multiprocessing
import signal
import sys
import wave

import numpy
from pesq import pesq


class ScoringError(Exception):
    pass


def read(path):
    with wave.open(path, "rb") as file:
        if file.getsampwidth() != 2 or file.getnchannels() != 1:
            raise ScoringError(f"{path}: need 16-bit mono")
        samples = numpy.frombuffer(file.readframes(file.getnframes()), dtype="<i2").astype(numpy.float32)
        return file.getframerate(), samples


def score(reference_path, degraded_path, mode, window, offset):
    """The line a scoring prints: the mean and each window's score."""
    if mode not in ("nb", "wb"):
        raise ScoringError(f"mode must be nb or wb, not {mode}")
    rate, reference = read(reference_path)
    degraded_rate, degraded = read(degraded_path)
    if rate != degraded_rate:
        raise ScoringError(f"rates differ: {rate} Hz and {degraded_rate} Hz")
    window, offset = int(window), int(offset)
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
        scores.append(pesq(rate, ref, deg, mode))
        start += window
    if not scores:
        raise ScoringError("the recording is shorter than a quarter window")
    return f"{sum(scores) / len(scores):.4f} " + " ".join(f"{score:.3f}" for score in scores)


def score_request(line):
    """One request line of a batch, scored; an error becomes its own line."""
    fields = line.rstrip("\n").split("\t")
    try:
        if len(fields) != 5:
            raise ScoringError(f"expected 5 tab-separated fields, got {len(fields)}")
        return score(*fields)
    except Exception as error:  # a bad request must not stop the others
        return "error: " + " ".join(str(error).split())


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--batch":
        with open(sys.argv[2]) as file:
            requests = [line for line in file if line.strip()]
        jobs = max(int(sys.argv[3]), 1)
        if jobs == 1 or len(requests) < 2:
            results = map(score_request, requests)
            for result in results:
                print(result, flush=True)
        else:
            # The workers are told to stop (close, join), not terminated: a process started by
            # Swift's Foundation inherits its blocked signals, so the SIGTERM of the pool's
            # terminate() never arrived and a finished batch waited for its workers forever.
            signal.pthread_sigmask(signal.SIG_SETMASK, set())
            pool = multiprocessing.Pool(min(jobs, len(requests)))
            try:
                for result in pool.imap(score_request, requests):
                    print(result, flush=True)
            finally:
                pool.close()
                pool.join()
        return
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    try:
        print(score(*sys.argv[1:6]))
    except ScoringError as error:
        sys.exit(str(error))


if __name__ == "__main__":
    main()
