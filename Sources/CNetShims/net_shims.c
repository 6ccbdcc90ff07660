#define _GNU_SOURCE
#include "CNetShims.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

enum { batch_limit = 64, control_size = CMSG_SPACE(sizeof(struct timespec)) };

struct mb_receive_headers {
    unsigned count;
    struct mmsghdr messages[batch_limit];
    struct iovec vectors[batch_limit];
    char control[batch_limit][control_size];
};

/* The parts of a message header the kernel overwrites on receive, set back to what the slot
   offers. */
static void reset_header(struct mmsghdr *message) {
    message->msg_hdr.msg_namelen = sizeof(struct sockaddr_storage);
    message->msg_hdr.msg_controllen = control_size;
    message->msg_hdr.msg_flags = 0;
    message->msg_len = 0;
}

mb_receive_headers *mb_udp_receive_headers_create(mb_datagram *datagrams, unsigned count) {
    if (count > batch_limit) count = batch_limit;
    mb_receive_headers *headers = calloc(1, sizeof *headers);
    if (headers == NULL) return NULL;
    headers->count = count;
    for (unsigned i = 0; i < count; i++) {
        headers->vectors[i].iov_base = datagrams[i].buffer;
        headers->vectors[i].iov_len = datagrams[i].capacity;
        headers->messages[i].msg_hdr.msg_iov = &headers->vectors[i];
        headers->messages[i].msg_hdr.msg_iovlen = 1;
        headers->messages[i].msg_hdr.msg_name = &datagrams[i].address;
        headers->messages[i].msg_hdr.msg_control = headers->control[i];
        reset_header(&headers->messages[i]);
    }
    return headers;
}

void mb_udp_receive_headers_destroy(mb_receive_headers *headers) { free(headers); }

int mb_udp_receive_batch(int fd, mb_receive_headers *headers, mb_datagram *datagrams, unsigned count) {
    if (count > headers->count) count = headers->count;
    int received = recvmmsg(fd, headers->messages, count, MSG_DONTWAIT, NULL);
    if (received < 0) {
        int code = errno;
        reset_header(&headers->messages[0]);
        return (code == EAGAIN || code == EWOULDBLOCK) ? 0 : -code;
    }
    /* The slot that found the queue empty, in case the kernel wrote to it. */
    if ((unsigned)received < count) reset_header(&headers->messages[received]);
    for (int i = 0; i < received; i++) {
        struct mmsghdr *message = &headers->messages[i];
        datagrams[i].length = message->msg_len;
        datagrams[i].address_length = message->msg_hdr.msg_namelen;
        datagrams[i].truncated = (message->msg_hdr.msg_flags & MSG_TRUNC) != 0;
        datagrams[i].timestamp_ns = 0;
        for (struct cmsghdr *header = CMSG_FIRSTHDR(&message->msg_hdr); header != NULL;
             header = CMSG_NXTHDR(&message->msg_hdr, header)) {
            if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_TIMESTAMPNS) {
                struct timespec stamp;
                memcpy(&stamp, CMSG_DATA(header), sizeof stamp);
                datagrams[i].timestamp_ns = (int64_t)stamp.tv_sec * 1000000000 + stamp.tv_nsec;
            }
        }
        reset_header(message);
    }
    return received;
}

int mb_udp_send_batch(int fd, mb_datagram *datagrams, unsigned count) {
    if (count > batch_limit) count = batch_limit;
    struct mmsghdr messages[batch_limit];
    struct iovec vectors[batch_limit];
    memset(messages, 0, sizeof(struct mmsghdr) * count);
    for (unsigned i = 0; i < count; i++) {
        vectors[i].iov_base = datagrams[i].buffer;
        vectors[i].iov_len = datagrams[i].length;
        messages[i].msg_hdr.msg_iov = &vectors[i];
        messages[i].msg_hdr.msg_iovlen = 1;
        messages[i].msg_hdr.msg_name = &datagrams[i].address;
        messages[i].msg_hdr.msg_namelen = datagrams[i].address_length;
    }
    int sent = sendmmsg(fd, messages, count, MSG_DONTWAIT);
    return sent < 0 ? -errno : sent;
}

int mb_epoll_create(void) {
    int fd = epoll_create1(EPOLL_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

int mb_epoll_add(int epoll_fd, int fd, uint64_t token) {
    /* Edge-triggered: a socket is reported once per arrival, not again at every look while
       its queue is drained; the loop reads each reported socket until it is empty. */
    struct epoll_event event = {.events = EPOLLIN | EPOLLET, .data.u64 = token};
    return epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event) < 0 ? -errno : 0;
}

int mb_epoll_remove(int epoll_fd, int fd) {
    return epoll_ctl(epoll_fd, EPOLL_CTL_DEL, fd, NULL) < 0 ? -errno : 0;
}

int mb_epoll_wait(int epoll_fd, uint64_t *tokens, int capacity, int timeout_ms) {
    if (capacity > batch_limit) capacity = batch_limit;
    struct epoll_event events[batch_limit];
    int ready = epoll_wait(epoll_fd, events, capacity, timeout_ms);
    if (ready < 0) return errno == EINTR ? 0 : -errno;
    for (int i = 0; i < ready; i++) tokens[i] = events[i].data.u64;
    return ready;
}

int mb_eventfd_create(void) {
    int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

int mb_eventfd_signal(int fd) {
    uint64_t one = 1;
    return write(fd, &one, sizeof one) < 0 ? -errno : 0;
}

int mb_eventfd_drain(int fd) {
    uint64_t value;
    return read(fd, &value, sizeof value) < 0 && errno != EAGAIN ? -errno : 0;
}

int mb_set_thread_name(const char *name) {
    return -pthread_setname_np(pthread_self(), name);
}
