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

enum { FRAME = 160 };

static int16_t pcm[FRAME];
static uint8_t codes[FRAME];

static uint64_t now_nanoseconds(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (uint64_t)time.tv_sec * 1000000000u + (uint64_t)time.tv_nsec;
}

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

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("spandsp (release %d)\n", SPANDSP_RELEASE_DATE);
        return 0;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: %s CASE ITERATIONS | --version\n", argv[0]);
        return 2;
    }
    char *end = NULL;
    long iterations = strtol(argv[2], &end, 10);
    if (*end != '\0' || iterations <= 0) {
        fprintf(stderr, "g711-spandsp: ITERATIONS must be a positive integer, got '%s'\n", argv[2]);
        return 2;
    }
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
    run(state, encode, iterations / 10 + 1);  // untimed warm-up
    uint64_t start = now_nanoseconds();
    run(state, encode, iterations);
    printf("%llu\n", (unsigned long long)(now_nanoseconds() - start));
    g711_free(state);
    return 0;
}
