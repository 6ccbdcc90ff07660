#include "CAllocationCounter.h"
#include <errno.h>
#include <stddef.h>

// Sanitizer runtimes interpose malloc themselves; a second interposer in the executable breaks
// them (ThreadSanitizer crashes at start-up). Under a sanitizer the counter is left out and
// reports itself unavailable.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define MB_UNDER_SANITIZER 1
#endif
#endif

#ifdef MB_UNDER_SANITIZER

int mb_allocation_counting_available(void) { return 0; }
uint64_t mb_allocation_count(void) { return 0; }
uint64_t mb_thread_allocation_count(void) { return 0; }

#else

int mb_allocation_counting_available(void) { return 1; }

// glibc's own entry points; the definitions below interpose the public names for the
// whole process (the executable's symbols win over libc.so's) and forward here.
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static uint64_t allocation_count;
// Per thread as well, so a measurement on one thread is not disturbed by tests or work running
// on others. The executable's own TLS uses the local-exec model: reading it never allocates.
static __thread uint64_t thread_allocation_count;

static inline void count_one(void) {
    __atomic_fetch_add(&allocation_count, 1, __ATOMIC_RELAXED);
    thread_allocation_count++;
}

uint64_t mb_allocation_count(void) {
    return __atomic_load_n(&allocation_count, __ATOMIC_RELAXED);
}

uint64_t mb_thread_allocation_count(void) {
    return thread_allocation_count;
}

void *malloc(size_t size) {
    count_one();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_one();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    count_one();
    return __libc_realloc(pointer, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    count_one();
    void *memory = __libc_memalign(alignment, size);
    if (memory == NULL) {
        return ENOMEM;
    }
    *result = memory;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

#endif
