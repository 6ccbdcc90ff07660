#!/usr/bin/env python3
"""Jitter-buffer peer: PJSIP's adaptive jitter buffer (pjmedia jbuf), driven by the protocol of
JITTER-PEERS.md through ctypes on the pjmedia C API that the `pjsua2-python` wheel exports.

KNOB = the initial prefetch in frames (pjsua's `jb_init`): when non-zero, every time the buffer
runs empty it returns nothing until it holds that many frames again. `default` = pjsua's stream
defaults: max_count = 500 ms of frames, prefetch 0, min_prefetch 1, max_prefetch 4/5 of max_count,
progressive discard.
"""

import csv
import ctypes
import math
import os
import struct
import sys

TAIL_MS = 2000.0  # pulls continue this long after the last arrival
MAX_SPAN_MS = 86_400_000.0  # the longest trace accepted, first to last arrival (a day)
NORMAL_FRAME, ZERO_PREFETCH_FRAME = 1, 2  # pjmedia_jb_frame_type (MISSING and ZERO_EMPTY print '-')
DISCARD_PROGRESSIVE = 2  # pjmedia_jb_discard_algo


def fail(message):
    print(f"jitter-pjmedia: {message}", file=sys.stderr)
    sys.exit(2)


class PjString(ctypes.Structure):
    _fields_ = [("ptr", ctypes.c_char_p), ("slen", ctypes.c_ssize_t)]


class JitterBufferState(ctypes.Structure):
    """pjmedia_jb_state as pjmedia 2.15 lays it out (max_count sits between max_prefetch and burst)."""
    _fields_ = [(name, ctypes.c_uint) for name in (
        "frame_size", "min_prefetch", "max_prefetch", "max_count", "burst", "prefetch", "size", "avg_delay",
        "min_delay", "max_delay", "dev_delay", "avg_burst", "lost", "discard", "empty")]


def load_pjmedia():
    """The wheel's extension module, which links pjlib and pjmedia in and exports their symbols."""
    try:
        import pjsua2
    except ImportError:
        fail("the pjsua2-python wheel is not installed (pip install pjsua2-python)")
    folder = os.path.dirname(pjsua2.__file__)
    names = [name for name in os.listdir(folder) if name.startswith("_pjsua2") and name.endswith(".so")]
    if not names:
        fail(f"no _pjsua2*.so in {folder}")
    library = ctypes.CDLL(os.path.join(folder, names[0]))
    library.pj_get_version.restype = ctypes.c_char_p
    library.pj_pool_create.restype = ctypes.c_void_p
    library.pj_pool_create.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_void_p]
    library.pjmedia_jbuf_create.argtypes = [
        ctypes.c_void_p, ctypes.POINTER(PjString), ctypes.c_uint, ctypes.c_uint, ctypes.c_uint,
        ctypes.POINTER(ctypes.c_void_p)]
    library.pjmedia_jbuf_set_adaptive.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint]
    library.pjmedia_jbuf_set_discard.argtypes = [ctypes.c_void_p, ctypes.c_int]
    library.pjmedia_jbuf_get_state.argtypes = [ctypes.c_void_p, ctypes.POINTER(JitterBufferState)]
    library.pjmedia_jbuf_put_frame3.restype = None
    library.pjmedia_jbuf_put_frame3.argtypes = [
        ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint32,
        ctypes.POINTER(ctypes.c_int)]
    library.pjmedia_jbuf_get_frame3.restype = None
    library.pjmedia_jbuf_get_frame3.argtypes = [
        ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t), ctypes.POINTER(ctypes.c_char),
        ctypes.POINTER(ctypes.c_uint32), ctypes.POINTER(ctypes.c_uint32), ctypes.POINTER(ctypes.c_int)]
    library.pjmedia_jbuf_destroy.argtypes = [ctypes.c_void_p]
    return library


def parse_arguments(argv):
    if len(argv) != 6 or argv[1] != "jitter":
        fail("usage: jitter TRACE.csv FRAME_MS CLOCK_RATE KNOB|default (or --version)")
    try:
        frame_ms = float(argv[3])
        clock_rate = int(argv[4])
        knob = None if argv[5] == "default" else int(argv[5])
    except ValueError:
        fail("FRAME_MS must be a number, CLOCK_RATE an integer, KNOB an integer or 'default'")
    if not 1 <= frame_ms <= 1000 or not 1000 <= clock_rate <= 192000 or (knob is not None and not 0 <= knob <= 1000):
        fail("FRAME_MS must be in 1…1000, CLOCK_RATE in 1000…192000, KNOB in 0…1000 frames")
    return argv[2], frame_ms, clock_rate, knob


def read_trace(path):
    """The rows of the trace CSV, as (seq, rtp_ts, arrival_ms or None, payload_bytes)."""
    try:
        with open(path, newline="") as file:
            reader = csv.reader(file)
            if next(reader, None) != ["seq", "rtp_ts", "send_ms", "arrival_ms", "payload_bytes"]:
                fail(f"{path}: header must be seq,rtp_ts,send_ms,arrival_ms,payload_bytes")
            rows = []
            for line_number, fields in enumerate(reader, start=2):
                if not fields:
                    continue
                try:
                    seq, rtp_ts, _, arrival, payload = fields
                    row = (int(seq), int(rtp_ts), float(arrival) if arrival else None, int(payload))
                except ValueError:
                    fail(f"{path} line {line_number} is not seq,rtp_ts,send_ms,arrival_ms,payload_bytes")
                if not 0 <= row[3] <= 65535 or (row[2] is not None and not math.isfinite(row[2])):
                    fail(f"{path} line {line_number}: payload_bytes or arrival_ms out of range")
                rows.append(row)
    except OSError as error:
        fail(f"cannot read trace: {error}")
    return rows


def main(argv):
    library = load_pjmedia()
    name = f"pjmedia {library.pj_get_version().decode()} jbuf"
    if len(argv) == 2 and argv[1] == "--version":
        print(name)
        return
    trace_path, frame_ms, clock_rate, knob = parse_arguments(argv)
    rows = read_trace(trace_path)
    arrivals = sorted((row[2], index) for index, row in enumerate(rows) if row[2] is not None)
    if not arrivals:
        fail("no packet of the trace arrives")

    library.pj_log_set_level(0)  # pjlib logs to standard output, which carries the protocol
    if library.pj_init() != 0:
        fail("pj_init failed")
    caching_pool = ctypes.create_string_buffer(1 << 16)  # pj_caching_pool, larger than it needs
    library.pj_caching_pool_init(caching_pool, None, 0)
    pool = library.pj_pool_create(ctypes.addressof(caching_pool), b"jitter-peer", 4096, 4096, None)
    if not pool:
        fail("pj_pool_create failed")

    # The row index rides in the first 4 bytes of each frame, so a played frame names its row.
    frame_size = max(4, max(row[3] for row in rows))
    ptime = max(1, round(frame_ms))
    frame_units = max(1, round(frame_ms * clock_rate / 1000))
    max_count = max(1, 500 // ptime)
    jitter_buffer = ctypes.c_void_p()
    label = b"jitter-peer"
    status = library.pjmedia_jbuf_create(
        pool, ctypes.byref(PjString(label, len(label))), frame_size, ptime, max_count, ctypes.byref(jitter_buffer))
    if status != 0:
        fail(f"pjmedia_jbuf_create failed with status {status}")
    prefetch = 0 if knob is None else knob
    library.pjmedia_jbuf_set_adaptive(jitter_buffer, prefetch, 1, max_count * 4 // 5)
    library.pjmedia_jbuf_set_discard(jitter_buffer, DISCARD_PROGRESSIVE)
    state = JitterBufferState()
    library.pjmedia_jbuf_get_state(jitter_buffer, ctypes.byref(state))

    output = [name, f"knob,prefetch,{state.prefetch},frames"]
    frame = ctypes.create_string_buffer(frame_size)
    size, frame_type = ctypes.c_size_t(), ctypes.c_char()
    bit_info, timestamp, sequence, discarded = ctypes.c_uint32(), ctypes.c_uint32(), ctypes.c_int(), ctypes.c_int()
    first_ms, last_ms = arrivals[0][0], arrivals[-1][0]
    if last_ms - first_ms > MAX_SPAN_MS:
        fail("the trace's arrivals span more than a day")
    tick_count = math.floor((last_ms + TAIL_MS - first_ms) / frame_ms) + 1
    next_arrival = 0
    for tick in range(tick_count):
        now_ms = first_ms + tick * frame_ms
        while next_arrival < len(arrivals) and arrivals[next_arrival][0] <= now_ms:
            index = arrivals[next_arrival][1]
            _, rtp_ts, _, payload_bytes = rows[index]
            payload = struct.pack("<I", index).ljust(max(4, payload_bytes), b"\xff")
            # As pjmedia's stream does: the frame number is the RTP timestamp (wrapped to 32 bits as
            # on the wire) divided by the frame's timestamp span; the RTP sequence number is unused.
            wire_ts = rtp_ts & 0xFFFFFFFF
            library.pjmedia_jbuf_put_frame3(
                jitter_buffer, payload, len(payload), 0, wire_ts // frame_units, wire_ts, ctypes.byref(discarded))
            next_arrival += 1
        size.value = frame_size
        library.pjmedia_jbuf_get_frame3(
            jitter_buffer, frame, ctypes.byref(size), ctypes.byref(frame_type), ctypes.byref(bit_info),
            ctypes.byref(timestamp), ctypes.byref(sequence))
        kind = ord(frame_type.value)
        if kind == NORMAL_FRAME and size.value >= 4:
            played = struct.unpack_from("<I", frame.raw)[0]
            output.append(f"{now_ms:.3f},{rows[played][0]}")
        elif kind == ZERO_PREFETCH_FRAME:
            output.append(f"{now_ms:.3f},buffering")
        else:
            output.append(f"{now_ms:.3f},-")
    library.pjmedia_jbuf_destroy(jitter_buffer)
    library.pj_pool_release(ctypes.c_void_p(pool))
    library.pj_caching_pool_destroy(caching_pool)
    sys.stdout.write("\n".join(output) + "\n")


if __name__ == "__main__":
    main(sys.argv)
