// Peer for the `self-check` suite: the same trivial operations as ours, in C.
// Protocol (Benchmarks/README.md): `self-check --version`, `self-check CASE ITERATIONS`.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { COUNT = 1024 };

static uint32_t buffer[COUNT];
static volatile uint32_t sink;

static uint64_t now_nanoseconds(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (uint64_t)time.tv_sec * 1000000000u + (uint64_t)time.tv_nsec;
}

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
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("c-loop (gcc %s)\n", __VERSION__);
        return 0;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: %s CASE ITERATIONS | --version\n", argv[0]);
        return 2;
    }
    char *end = NULL;
    long iterations = strtol(argv[2], &end, 10);
    if (*end != '\0' || iterations <= 0) {
        fprintf(stderr, "self-check: ITERATIONS must be a positive integer, got '%s'\n", argv[2]);
        return 2;
    }
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
    operation(iterations / 10 + 1);  // untimed warm-up
    uint64_t start = now_nanoseconds();
    operation(iterations);
    printf("%llu\n", (unsigned long long)(now_nanoseconds() - start));
    return 0;
}
