// Peer for the `g711` suite: Python's audioop (lin2ulaw / ulaw2lin / lin2alaw / alaw2lin over
// one frame), the way Python code uses it. This C program only launches `python3` with the
// timing loop below; Python times itself with perf_counter_ns, so start-up is not measured.
// Protocol (Benchmarks/README.md): `g711-audioop --version`, `g711-audioop CASE ITERATIONS`.
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *script =
    "import sys, time, platform, warnings\n"
    "warnings.simplefilter('ignore', DeprecationWarning)\n"
    "import audioop\n"
    "if sys.argv[1] == '--version':\n"
    "    print('audioop (CPython ' + platform.python_version() + ')'); sys.exit(0)\n"
    "case, iterations = sys.argv[1], int(sys.argv[2])\n"
    "pcm = b''.join(((i * 409 - 32768) & 0xFFFF).to_bytes(2, 'little') for i in range(160))\n"
    "codes = bytes((i * 37) & 0xFF for i in range(160))\n"
    "ops = {'pcmu-encode-20ms': (audioop.lin2ulaw, pcm), 'pcmu-decode-20ms': (audioop.ulaw2lin, codes),\n"
    "       'pcma-encode-20ms': (audioop.lin2alaw, pcm), 'pcma-decode-20ms': (audioop.alaw2lin, codes)}\n"
    "if case not in ops: sys.exit('g711-audioop: unknown case ' + repr(case))\n"
    "op, data = ops[case]\n"
    "for _ in range(iterations // 10 + 1): op(data, 2)\n"
    "start = time.perf_counter_ns()\n"
    "for _ in range(iterations): op(data, 2)\n"
    "print(time.perf_counter_ns() - start)\n";

int main(int argc, char **argv) {
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: %s CASE ITERATIONS | --version\n", argv[0]);
        return 2;
    }
    char *arguments[] = {"python3", "-c", (char *)script, argv[1], argc == 3 ? argv[2] : NULL, NULL};
    execvp("python3", arguments);
    perror("g711-audioop: cannot run python3");
    return 1;
}
