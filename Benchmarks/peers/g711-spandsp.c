// Peer for the `g711` suite: spandsp's G.711 (g711_encode / g711_decode over one frame).
// Protocol (Benchmarks/README.md): `g711-spandsp --version`, `g711-spandsp CASE ITERATIONS`.
// Cases: pcmu-encode-20ms, pcmu-decode-20ms, pcma-encode-20ms, pcma-decode-20ms.
#include <spandsp.h>
#include <spandsp/version.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "peer-protocol.h"

enum { FRAME = 160 };

static int16_t pcm[FRAME];
static uint8_t codes[FRAME];

// Same input as the Swift side: a sweep over the whole 16-bit range.
static void fill_input(void) {
    for (int index = 0; index < FRAME; index++) {
        pcm[index] = (int16_t)(index * 409 - 32768);
        codes[index] = (uint8_t)(index * 37);
    }
}

static void run(g711_state_t *state, int encode, long iterations) {
    for (long iteration = 0; iteration < iterations; iteration++) {
        if (encode) {
            g711_encode(state, codes, pcm, FRAME);
            __asm__ volatile("" : : "r"(codes) : "memory");
        } else {
            g711_decode(state, pcm, codes, FRAME);
            __asm__ volatile("" : : "r"(pcm) : "memory");
        }
    }
}

/// The state and direction `main` chose, for `run_selected`.
static struct selection {
    g711_state_t *state;
    int encode;
} selected;

static void run_selected(long iterations) {
    run(selected.state, selected.encode, iterations);
}

int main(int argc, char **argv) {
    char version[128];
    snprintf(version, sizeof version, "spandsp (release %d)", SPANDSP_RELEASE_DATE);
    long iterations;
    int status = peer_arguments(argc, argv, "g711-spandsp", version, &iterations);
    if (status >= 0) return status;
    int mode, encode;
    if (strcmp(argv[1], "pcmu-encode-20ms") == 0) {
        mode = G711_ULAW, encode = 1;
    } else if (strcmp(argv[1], "pcmu-decode-20ms") == 0) {
        mode = G711_ULAW, encode = 0;
    } else if (strcmp(argv[1], "pcma-encode-20ms") == 0) {
        mode = G711_ALAW, encode = 1;
    } else if (strcmp(argv[1], "pcma-decode-20ms") == 0) {
        mode = G711_ALAW, encode = 0;
    } else {
        fprintf(stderr, "g711-spandsp: unknown case '%s'\n", argv[1]);
        return 2;
    }
    g711_state_t *state = g711_init(NULL, mode);
    if (state == NULL) {
        fprintf(stderr, "g711-spandsp: g711_init failed\n");
        return 1;
    }
    fill_input();
    selected = (struct selection){state, encode};
    peer_time(run_selected, iterations);
    g711_free(state);
    return 0;
}
