// Linux socket calls that Swift's Glibc module does not expose (recvmmsg/sendmmsg need
// _GNU_SOURCE; epoll and eventfd are not in the module; CMSG_* are macros; nor is
// pthread_setname_np; nor are prefetching and malloc_usable_size). Only the MediaSession module imports this target.
#ifndef CNETSHIMS_H
#define CNETSHIMS_H

#include <malloc.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/// One datagram slot for a batched receive or send.
typedef struct {
    /// The payload buffer (filled on receive, read on send).
    void *buffer;
    /// The buffer's size in bytes.
    size_t capacity;
    /// The datagram's length (set on receive; given on send).
    size_t length;
    /// The peer's address (source on receive, destination on send).
    struct sockaddr_storage address;
    /// The address's length.
    socklen_t address_length;
    /// The kernel's receive time (SO_TIMESTAMPNS, CLOCK_REALTIME) in nanoseconds, or 0 if absent.
    int64_t timestamp_ns;
    /// Non-zero when the datagram was larger than the buffer and was cut.
    int truncated;
} mb_datagram;

/// The recvmmsg headers (message, vector and control space per slot) of a batch of `count`
/// slots, built once by mb_udp_receive_headers_create so that a receive does not build them
/// again. Opaque.
typedef struct mb_receive_headers mb_receive_headers;

/// Builds the headers that receive into `datagrams` (at most 64 slots). Returns NULL when out
/// of memory. Free with mb_udp_receive_headers_destroy.
mb_receive_headers *mb_udp_receive_headers_create(mb_datagram *datagrams, unsigned count);
/// Frees headers made by mb_udp_receive_headers_create.
void mb_udp_receive_headers_destroy(mb_receive_headers *headers);

/// Receives up to `count` datagrams without blocking (recvmmsg) through `headers` (built for
/// `datagrams`, with at least `count` slots). Returns how many, 0 when none is waiting, or -errno.
int mb_udp_receive_batch(int fd, mb_receive_headers *headers, mb_datagram *datagrams, unsigned count);

/// Sends `count` datagrams (sendmmsg). Returns how many were sent, or -errno.
int mb_udp_send_batch(int fd, mb_datagram *datagrams, unsigned count);

/// Creates an epoll instance (close-on-exec). Returns the descriptor or -errno.
int mb_epoll_create(void);
/// Watches `fd` for input, edge-triggered: reports `token` when data arrives (the caller reads
/// until the socket is empty). Returns 0 or -errno.
int mb_epoll_add(int epoll_fd, int fd, uint64_t token);
/// Stops watching `fd`. Returns 0 or -errno.
int mb_epoll_remove(int epoll_fd, int fd);
/// Waits up to `timeout_ms` (-1 = forever) and writes the tokens of ready descriptors.
/// Returns how many, or -errno.
int mb_epoll_wait(int epoll_fd, uint64_t *tokens, int capacity, int timeout_ms);

/// Creates a non-blocking eventfd used to wake an epoll loop. Returns the descriptor or -errno.
int mb_eventfd_create(void);
/// Adds one to an eventfd. Returns 0 or -errno.
int mb_eventfd_signal(int fd);
/// Empties an eventfd. Returns 0 or -errno.
int mb_eventfd_drain(int fd);

/// Names the calling thread (at most 15 characters shown), as `top -H` and /proc show it.
/// Returns 0 or -errno.
int mb_set_thread_name(const char *name);

/// Asks the processor to bring the cache line at `address` in (a hint: it never faults and
/// changes nothing the program sees). A read prefetch with low temporal locality (prefetcht2
/// on x86-64) rather than prefetcht0: a media thread warms a hundred-odd lines per leg ahead of
/// its tick; in interleaved `bench session --profile server --calls 500` runs the build with it
/// was lower than the same build with prefetcht0 in 8 of 11 (about 3 %, within the noise).
static inline void mb_prefetch(const void *address) { __builtin_prefetch(address, 0, 1); }

/// The usable size of the heap block at `address` (glibc's malloc_usable_size).
static inline size_t mb_allocation_size(const void *address) { return malloc_usable_size((void *)address); }

#endif
