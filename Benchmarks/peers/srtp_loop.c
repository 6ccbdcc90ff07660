// Peer for the `srtp` suite: the same loops as ours, in plain C on libsrtp2.
// Protocol (Benchmarks/README.md): `srtp_loop --version`, `srtp_loop CASE ITERATIONS`.
// CASE is OPERATION-SUITE: OPERATION `protect` or `round-trip` (protect then unprotect),
// SUITE `aes-cm-128-80` or `aes-gcm-128`. Each operation copies a 172-octet RTP packet
// (12-octet header, 160-octet payload) into the buffer, sets its sequence number and protects
// it in place, exactly as the Swift loop does.
#include <srtp2/srtp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "peer-protocol.h"

enum { HEADER = 12, PAYLOAD = 160, PACKET = HEADER + PAYLOAD, BUFFER = PACKET + SRTP_MAX_TRAILER_LEN };

static unsigned char plaintext[PACKET];
static unsigned char buffer[BUFFER];
static unsigned char key[SRTP_AES_GCM_256_KEY_LEN_WSALT];
static srtp_t sender;
static srtp_t receiver;
static uint16_t sequence;

static void check(srtp_err_status_t status, const char *what) {
    if (status != srtp_err_status_ok) {
        fprintf(stderr, "srtp_loop: %s failed with libsrtp status %d\n", what, (int)status);
        exit(1);
    }
}

// Copies the packet in, gives it the next sequence number and protects it.
static int protect_next(void) {
    memcpy(buffer, plaintext, PACKET);
    sequence++;
    buffer[2] = (unsigned char)(sequence >> 8);
    buffer[3] = (unsigned char)sequence;
    int length = PACKET;
    check(srtp_protect(sender, buffer, &length), "srtp_protect");
    return length;
}

static void protect(long iterations) {
    for (long iteration = 0; iteration < iterations; iteration++) {
        protect_next();
        __asm__ volatile("" : : "r"(buffer) : "memory");
    }
}

static void round_trip(long iterations) {
    for (long iteration = 0; iteration < iterations; iteration++) {
        int length = protect_next();
        check(srtp_unprotect(receiver, buffer, &length), "srtp_unprotect");
        __asm__ volatile("" : : "r"(buffer) : "memory");
    }
}

static void create(srtp_t *session, srtp_ssrc_type_t direction, int gcm) {
    srtp_policy_t policy;
    memset(&policy, 0, sizeof policy);
    if (gcm) {
        srtp_crypto_policy_set_aes_gcm_128_16_auth(&policy.rtp);
        srtp_crypto_policy_set_aes_gcm_128_16_auth(&policy.rtcp);
    } else {
        srtp_crypto_policy_set_rtp_default(&policy.rtp);
        srtp_crypto_policy_set_rtcp_default(&policy.rtcp);
    }
    policy.ssrc.type = direction;
    policy.key = key;
    policy.window_size = 128;
    check(srtp_create(session, &policy), "srtp_create");
}

int main(int argc, char **argv) {
    char version[128];
    snprintf(version, sizeof version, "%s, C loop (gcc %s)", srtp_get_version_string(), __VERSION__);
    long iterations;
    int status = peer_arguments(argc, argv, "srtp_loop", version, &iterations);
    if (status >= 0) return status;
    void (*operation)(long);
    const char *suite;
    if (strncmp(argv[1], "protect-", 8) == 0) {
        operation = protect;
        suite = argv[1] + 8;
    } else if (strncmp(argv[1], "round-trip-", 11) == 0) {
        operation = round_trip;
        suite = argv[1] + 11;
    } else {
        fprintf(stderr, "srtp_loop: unknown case '%s'\n", argv[1]);
        return 2;
    }
    int gcm = strcmp(suite, "aes-gcm-128") == 0;
    if (!gcm && strcmp(suite, "aes-cm-128-80") != 0) {
        fprintf(stderr, "srtp_loop: unknown suite in case '%s'\n", argv[1]);
        return 2;
    }
    // The same fixed key, header and payload as the Swift suite.
    for (int index = 0; index < (int)sizeof key; index++) key[index] = (unsigned char)(index * 37);
    const unsigned char header[HEADER] = {0x80, 0x08, 0, 0, 0, 0, 0, 160, 0x12, 0x34, 0x56, 0x78};
    memcpy(plaintext, header, HEADER);
    for (int index = 0; index < PAYLOAD; index++) plaintext[HEADER + index] = (unsigned char)(index * 7);
    check(srtp_init(), "srtp_init");
    create(&sender, ssrc_any_outbound, gcm);
    create(&receiver, ssrc_any_inbound, gcm);
    peer_time(operation, iterations);
    srtp_dealloc(sender);
    srtp_dealloc(receiver);
    return 0;
}
