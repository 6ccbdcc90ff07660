#!/usr/bin/env python3
"""Prints the DTMF digits heard in a 16-bit mono 8 kHz WAV file, as spandsp's DTMF receiver
(dtmf_rx, ITU-T Q.24 detection) finds them: an independent check that a receiver played the
tones of the telephone events it was sent.

    detect_dtmf.py FILE.wav
"""
import array
import ctypes
import sys
import wave


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        with wave.open(sys.argv[1]) as source:
            if (source.getframerate(), source.getnchannels(), source.getsampwidth()) != (8000, 1, 2):
                print(f"detect_dtmf.py: {sys.argv[1]} is not 16-bit mono 8 kHz", file=sys.stderr)
                return 1
            samples = array.array("h", source.readframes(source.getnframes()))
    except (OSError, wave.Error) as error:
        print(f"detect_dtmf.py: cannot read {sys.argv[1]}: {error}", file=sys.stderr)
        return 1
    if sys.byteorder != "little":
        samples.byteswap()
    try:
        library = ctypes.CDLL("libspandsp.so.2")
    except OSError:
        print("detect_dtmf.py: libspandsp.so.2 is missing: install the package libspandsp2", file=sys.stderr)
        return 1
    library.dtmf_rx_init.restype = ctypes.c_void_p
    library.dtmf_rx_init.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
    library.dtmf_rx.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int16), ctypes.c_int]
    library.dtmf_rx_get.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    library.dtmf_rx_free.argtypes = [ctypes.c_void_p]
    receiver = library.dtmf_rx_init(None, None, None)
    pcm = (ctypes.c_int16 * len(samples)).from_buffer(samples)
    library.dtmf_rx(receiver, pcm, len(samples))
    digits = ctypes.create_string_buffer(256)
    library.dtmf_rx_get(receiver, digits, 255)
    library.dtmf_rx_free(receiver)
    print(digits.value.decode("ascii"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
