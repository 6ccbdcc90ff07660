// The SRTP bench's physical reference: the SRTP transform of a 172-octet RTP packet (12-octet
// header, 160-octet payload) as a plain C loop on OpenSSL, with the session keys given directly
// (no key derivation, no SSRC table): AES-CM + HMAC-SHA1 or AES-GCM, in one reused
// EVP_CIPHER_CTX per direction, the sequence number and index kept as a counter.
#ifndef OPENSSL_SRTP_LOOP_H
#define OPENSSL_SRTP_LOOP_H

#include <stddef.h>
#include <stdint.h>

/// How the C loop computes HMAC-SHA1 (ignored for AES-GCM).
typedef enum {
    /// SHA-1 states after the padded key kept as SHA_CTX values, copied per packet.
    mb_hmac_precomputed_sha1 = 0,
    /// One HMAC_CTX kept and re-initialised per packet with HMAC_Init_ex(ctx, NULL, 0, NULL, NULL).
    mb_hmac_kept_hmac_ctx = 1,
    /// One EVP_MAC_CTX ("HMAC", SHA1) kept and re-initialised per packet with EVP_MAC_init(ctx, NULL, 0, NULL).
    mb_hmac_evp_mac = 2,
} mb_hmac_method;

typedef struct mb_srtp_loop mb_srtp_loop;

/// A loop for AES-GCM (`gcm` != 0) or AES-CM with HMAC-SHA1 and `tag_length` octets of tag,
/// with a `key_length`-octet (16 or 32) session key; NULL on failure.
mb_srtp_loop *mb_srtp_loop_create(int gcm, int key_length, int tag_length, mb_hmac_method hmac);
void mb_srtp_loop_free(mb_srtp_loop *loop);

/// Protects `iterations` packets (copy in, next sequence number, encrypt, tag); returns the
/// last protected length, or -1 on failure.
int mb_srtp_loop_protect(mb_srtp_loop *loop, long iterations);

/// Protects then verifies and decrypts `iterations` packets; returns the last unprotected
/// length, or -1 on failure.
int mb_srtp_loop_round_trip(mb_srtp_loop *loop, long iterations);

/// OpenSSL's version line, such as "OpenSSL 3.0.17 1 Jul 2025".
const char *mb_srtp_loop_openssl_version(void);

#endif
