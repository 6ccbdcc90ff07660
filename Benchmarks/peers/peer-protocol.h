// The peer program protocol of Benchmarks/README.md, shared by the C peers:
//   PROGRAM --version            prints one line: the peer's name and version
//   PROGRAM CASE ITERATIONS      runs CASE ITERATIONS times (after an untimed tenth) and prints
//                                the elapsed nanoseconds
#ifndef PEER_PROTOCOL_H
#define PEER_PROTOCOL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/// The monotonic clock in nanoseconds.
static inline uint64_t now_nanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

/// Reads the command line. Returns -1 with `*iterations` set when a case is to run, or the exit
/// status to return at once: 0 after printing `version` for `--version`, 2 after a usage error.
static inline int peer_arguments(int argc, char **argv, const char *program, const char *version, long *iterations) {
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("%s\n", version);
        return 0;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: %s CASE ITERATIONS | --version\n", argv[0]);
        return 2;
    }
    char *end = NULL;
    *iterations = strtol(argv[2], &end, 10);
    if (*end != '\0' || *iterations <= 0) {
        fprintf(stderr, "%s: ITERATIONS must be a positive integer, got '%s'\n", program, argv[2]);
        return 2;
    }
    return -1;
}

/// Runs `operation` for a tenth of `iterations` untimed, then for `iterations` timed, and prints
/// the elapsed nanoseconds.
static inline void peer_time(void (*operation)(long), long iterations) {
    operation(iterations / 10 + 1);
    uint64_t start = now_nanoseconds();
    operation(iterations);
    printf("%llu\n", (unsigned long long)(now_nanoseconds() - start));
}

#endif
