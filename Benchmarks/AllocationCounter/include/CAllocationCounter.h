// Counts heap allocations by interposing malloc, calloc, realloc and posix_memalign.
// Linked only into the benchmark harness and the tests, never into the library.
#ifndef CALLOCATIONCOUNTER_H
#define CALLOCATIONCOUNTER_H

#include <stdint.h>

/// 1 when allocations are counted; 0 in sanitizer builds, whose runtimes interpose malloc.
int mb_allocation_counting_available(void);

/// The number of allocation calls made by any thread since the process started.
uint64_t mb_allocation_count(void);

/// The number of allocation calls made by the calling thread since it started.
uint64_t mb_thread_allocation_count(void);

#endif
