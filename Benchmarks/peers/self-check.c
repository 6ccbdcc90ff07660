// Peer for the `self-check` suite: the same trivial operations as ours, in C.
// Protocol (Benchmarks/README.md): `self-check --version`, `self-check CASE ITERATIONS`.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "peer-protocol.h"

enum { COUNT = 1024 };

static uint32_t buffer[COUNT];
static volatile uint32_t sink;

// Changes one element, then sums them all: nothing can be hoisted out of the loop.
static void sum_1k(long iterations) {
    for (long iteration = 0; iteration < iterations; iteration++) {
        buffer[iteration & (COUNT - 1)] = (uint32_t)iteration;
        uint32_t sum = 0;
        for (int index = 0; index < COUNT; index++) {
            sum += buffer[index];
        }
        sink = sum;
    }
}

static void allocate_64_bytes(long iterations) {
    for (long iteration = 0; iteration < iterations; iteration++) {
        unsigned char *bytes = malloc(64);
        if (bytes == NULL) {
            abort();
        }
        memset(bytes, (int)iteration, 64);
        // An empty asm that "reads" the memory keeps malloc, memset and free from being elided.
        __asm__ volatile("" : : "r"(bytes) : "memory");
        free(bytes);
    }
}

int main(int argc, char **argv) {
    char version[128];
    snprintf(version, sizeof version, "c-loop (gcc %s)", __VERSION__);
    long iterations;
    int status = peer_arguments(argc, argv, "self-check", version, &iterations);
    if (status >= 0) return status;
    void (*operation)(long);
    if (strcmp(argv[1], "sum-1k") == 0) {
        operation = sum_1k;
    } else if (strcmp(argv[1], "allocate-64-bytes") == 0) {
        operation = allocate_64_bytes;
    } else {
        fprintf(stderr, "self-check: unknown case '%s'\n", argv[1]);
        return 2;
    }
    for (int index = 0; index < COUNT; index++) {
        buffer[index] = (uint32_t)index * 2654435761u;
    }
    peer_time(operation, iterations);
    return 0;
}
