// Peer for the `rtp` suite: RTP header parse+validate and build with libre's RTP header code
// (rtp_hdr_decode / rtp_hdr_encode over an mbuf wrapping a static buffer), doing the same
// work as ours: the same packets, the same validation, the same fields read or written.
// Protocol (Benchmarks/README.md): `rtp-libre --version`, `rtp-libre CASE ITERATIONS`.
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>

#include "peer-protocol.h"

#include <re.h>  // libre's headers need the standard types above

enum { PAYLOAD = 160, CAPACITY = 1500 };

static uint8_t packet[CAPACITY];
static size_t packet_length;
static uint8_t payload[PAYLOAD];
static uint8_t output[CAPACITY];
static volatile uint64_t sink;

// The packets of the Swift suite: PCMU with 160 bytes of payload; the extension case adds a
// one-byte header extension with an audio level (ID 1) and a transmission offset (ID 2).
static void make_packet(int with_extension) {
    static const uint8_t plain[] = {0x80, 0x00, 0x12, 0x34, 0x00, 0x00, 0xa0, 0x00, 0xde, 0xad, 0xbe, 0xef};
    static const uint8_t extended[] = {0x90, 0x00, 0x12, 0x34, 0x00, 0x00, 0xa0, 0x00, 0xde, 0xad, 0xbe, 0xef,
                                       0xbe, 0xde, 0x00, 0x02, 0x10, 0xaa, 0x22, 0x00, 0x01, 0x02, 0x00, 0x00};
    const uint8_t *header = with_extension ? extended : plain;
    size_t header_length = with_extension ? sizeof extended : sizeof plain;
    memcpy(packet, header, header_length);
    memset(packet + header_length, 0xd5, PAYLOAD);
    packet_length = header_length + PAYLOAD;
}

// rtp_hdr_decode reads the header, CSRCs and extension header; like ours, the version and the
// padding count are then checked and the payload located.
static int decode(struct rtp_header *header, struct mbuf *mb, size_t *payload_length) {
    mb->buf = packet;
    mb->size = packet_length;
    mb->pos = 0;
    mb->end = packet_length;
    if (rtp_hdr_decode(header, mb) != 0 || header->ver != 2) return -1;
    size_t padding = 0;
    if (header->pad) {
        if (mb->end <= mb->pos) return -1;
        padding = mb->buf[mb->end - 1];
        if (padding == 0 || padding > mb->end - mb->pos) return -1;
    }
    *payload_length = mb->end - mb->pos - padding;
    return 0;
}

static void parse_header(long iterations) {
    for (long iteration = 0; iteration < iterations; iteration++) {
        struct rtp_header header;
        struct mbuf mb;
        size_t payload_length;
        if (decode(&header, &mb, &payload_length) != 0) abort();
        sink = header.seq + header.ts + header.ssrc + header.pt + header.m + payload_length;
    }
}

// After the header, the RFC 8285 one-byte elements are walked (libre 1.1 has no element parser).
static void parse_extension(long iterations) {
    for (long iteration = 0; iteration < iterations; iteration++) {
        struct rtp_header header;
        struct mbuf mb;
        size_t payload_length;
        if (decode(&header, &mb, &payload_length) != 0) abort();
        uint64_t sum = header.seq + header.ts + header.ssrc + payload_length;
        if (header.ext && header.x.type == 0xbede) {
            const uint8_t *data = packet + 16 + 4 * header.cc;
            size_t length = 4u * header.x.len, offset = 0;
            while (offset < length) {
                uint8_t id = data[offset] >> 4;
                if (id == 0) { offset++; continue; }
                if (id == 15) break;
                size_t element = (data[offset] & 0x0f) + 1u;
                if (element > length - offset - 1) break;
                sum += id + data[offset + 1];
                offset += 1 + element;
            }
        }
        sink = sum;
    }
}

static void build(long iterations) {
    for (long iteration = 0; iteration < iterations; iteration++) {
        struct rtp_header header = {.ver = 2, .pt = 0, .seq = (uint16_t)iteration, .ts = (uint32_t)iteration * 160u,
                                    .ssrc = 0xdeadbeef};
        struct mbuf mb = {.buf = output, .size = CAPACITY, .pos = 0, .end = 0};
        if (rtp_hdr_encode(&mb, &header) != 0 || mbuf_write_mem(&mb, payload, PAYLOAD) != 0) abort();
        __asm__ volatile("" : : "r"(output) : "memory");
        sink = mb.end;
    }
}

int main(int argc, char **argv) {
    const char *version = "libre 1.1.0";
    long iterations;
    int status = peer_arguments(argc, argv, "rtp-libre", version, &iterations);
    if (status >= 0) return status;
    void (*operation)(long);
    if (strcmp(argv[1], "parse-header") == 0) {
        make_packet(0);
        operation = parse_header;
    } else if (strcmp(argv[1], "parse-extension") == 0) {
        make_packet(1);
        operation = parse_extension;
    } else if (strcmp(argv[1], "build") == 0) {
        memset(payload, 0xd5, PAYLOAD);
        operation = build;
    } else {
        fprintf(stderr, "rtp-libre: unknown case '%s'\n", argv[1]);
        return 2;
    }
    peer_time(operation, iterations);
    return 0;
}
