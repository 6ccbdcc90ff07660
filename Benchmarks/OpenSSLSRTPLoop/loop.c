// See include/openssl_srtp_loop.h.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include "openssl_srtp_loop.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <stdlib.h>
#include <string.h>

enum { header_length = 12, payload_length = 160, packet_length = header_length + payload_length };

struct mb_srtp_loop {
    int gcm, tag_length;
    mb_hmac_method hmac;
    EVP_CIPHER_CTX *encrypt, *decrypt;
    SHA_CTX inner, outer;
    HMAC_CTX *hmac_ctx;
    EVP_MAC *mac;
    EVP_MAC_CTX *mac_ctx;
    uint8_t salt[16];
    uint8_t plaintext[packet_length];
    uint8_t buffer[packet_length + 32];
    uint16_t sequence;
    uint64_t sent_index, received_index, window;
};

mb_srtp_loop *mb_srtp_loop_create(int gcm, int key_length, int tag_length, mb_hmac_method hmac) {
    mb_srtp_loop *loop = calloc(1, sizeof *loop);
    if (!loop) return NULL;
    loop->gcm = gcm;
    loop->tag_length = gcm ? 16 : tag_length;
    loop->hmac = hmac;
    uint8_t key[32], auth_key[20], block[64];
    for (int i = 0; i < 32; i++) key[i] = (uint8_t)(i * 37);
    for (int i = 0; i < 20; i++) auth_key[i] = (uint8_t)(i * 11 + 1);
    for (int i = 0; i < 14; i++) loop->salt[i] = (uint8_t)(i * 5 + 3);
    const EVP_CIPHER *cipher = gcm ? (key_length == 16 ? EVP_aes_128_gcm() : EVP_aes_256_gcm())
                                   : (key_length == 16 ? EVP_aes_128_ctr() : EVP_aes_256_ctr());
    loop->encrypt = EVP_CIPHER_CTX_new();
    loop->decrypt = EVP_CIPHER_CTX_new();
    if (!loop->encrypt || !loop->decrypt || EVP_EncryptInit_ex(loop->encrypt, cipher, NULL, key, NULL) != 1
        || (gcm ? EVP_DecryptInit_ex(loop->decrypt, cipher, NULL, key, NULL)
                : EVP_EncryptInit_ex(loop->decrypt, cipher, NULL, key, NULL)) != 1) {
        mb_srtp_loop_free(loop);
        return NULL;
    }
    memset(block, 0, sizeof block);
    memcpy(block, auth_key, sizeof auth_key);
    for (int i = 0; i < 64; i++) block[i] ^= 0x36;
    SHA1_Init(&loop->inner);
    SHA1_Update(&loop->inner, block, 64);
    for (int i = 0; i < 64; i++) block[i] ^= 0x36 ^ 0x5C;
    SHA1_Init(&loop->outer);
    SHA1_Update(&loop->outer, block, 64);
    loop->hmac_ctx = HMAC_CTX_new();
    HMAC_Init_ex(loop->hmac_ctx, auth_key, sizeof auth_key, EVP_sha1(), NULL);
    loop->mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    loop->mac_ctx = EVP_MAC_CTX_new(loop->mac);
    OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, "SHA1", 0), OSSL_PARAM_construct_end()};
    EVP_MAC_init(loop->mac_ctx, auth_key, sizeof auth_key, params);
    static const uint8_t header[header_length] = {0x80, 0x08, 0, 0, 0, 0, 0, 160, 0x12, 0x34, 0x56, 0x78};
    memcpy(loop->plaintext, header, header_length);
    for (int i = 0; i < payload_length; i++) loop->plaintext[header_length + i] = (uint8_t)(i * 7);
    return loop;
}

void mb_srtp_loop_free(mb_srtp_loop *loop) {
    if (!loop) return;
    EVP_CIPHER_CTX_free(loop->encrypt);
    EVP_CIPHER_CTX_free(loop->decrypt);
    HMAC_CTX_free(loop->hmac_ctx);
    EVP_MAC_CTX_free(loop->mac_ctx);
    EVP_MAC_free(loop->mac);
    OPENSSL_cleanse(loop, sizeof *loop);
    free(loop);
}

/// HMAC-SHA1 of `length` octets and the 4-octet ROC, truncated into `tag`.
static int authenticate(mb_srtp_loop *loop, const uint8_t *data, size_t length, const uint8_t roc[4], uint8_t *tag) {
    uint8_t digest[EVP_MAX_MD_SIZE];
    unsigned int digest_length = 0;
    size_t mac_length = 0;
    switch (loop->hmac) {
    case mb_hmac_precomputed_sha1: {
        SHA_CTX state = loop->inner;
        SHA1_Update(&state, data, length);
        SHA1_Update(&state, roc, 4);
        SHA1_Final(digest, &state);
        state = loop->outer;
        SHA1_Update(&state, digest, 20);
        SHA1_Final(digest, &state);
        break;
    }
    case mb_hmac_kept_hmac_ctx:
        if (HMAC_Init_ex(loop->hmac_ctx, NULL, 0, NULL, NULL) != 1 || HMAC_Update(loop->hmac_ctx, data, length) != 1
            || HMAC_Update(loop->hmac_ctx, roc, 4) != 1 || HMAC_Final(loop->hmac_ctx, digest, &digest_length) != 1)
            return 0;
        break;
    case mb_hmac_evp_mac:
        if (EVP_MAC_init(loop->mac_ctx, NULL, 0, NULL) != 1 || EVP_MAC_update(loop->mac_ctx, data, length) != 1
            || EVP_MAC_update(loop->mac_ctx, roc, 4) != 1 || EVP_MAC_final(loop->mac_ctx, digest, &mac_length, sizeof digest) != 1)
            return 0;
        break;
    }
    memcpy(tag, digest, (size_t)loop->tag_length);
    return 1;
}

/// The IV of the packet of index `index`: AES-CM (16 octets) or AES-GCM (12).
static void make_iv(const mb_srtp_loop *loop, uint64_t index, uint8_t iv[16]) {
    memset(iv, 0, 16);
    if (loop->gcm) {
        memcpy(iv + 2, loop->plaintext + 8, 4);
        for (int i = 0; i < 6; i++) iv[6 + i] = (uint8_t)(index >> (40 - 8 * i));
    } else {
        memcpy(iv + 4, loop->plaintext + 8, 4);
        for (int i = 0; i < 6; i++) iv[8 + i] = (uint8_t)(index >> (40 - 8 * i));
    }
    for (int i = 0; i < (loop->gcm ? 12 : 14); i++) iv[i] ^= loop->salt[i];
}

static int protect_next(mb_srtp_loop *loop) {
    uint8_t *packet = loop->buffer, iv[16];
    memcpy(packet, loop->plaintext, packet_length);
    loop->sequence++;
    packet[2] = (uint8_t)(loop->sequence >> 8);
    packet[3] = (uint8_t)loop->sequence;
    loop->sent_index++;
    make_iv(loop, loop->sent_index, iv);
    int length = 0;
    if (loop->gcm) {
        if (EVP_EncryptInit_ex(loop->encrypt, NULL, NULL, NULL, iv) != 1
            || EVP_EncryptUpdate(loop->encrypt, NULL, &length, packet, header_length) != 1
            || EVP_EncryptUpdate(loop->encrypt, packet + header_length, &length, packet + header_length, payload_length) != 1
            || EVP_EncryptFinal_ex(loop->encrypt, packet + packet_length, &length) != 1
            || EVP_CIPHER_CTX_ctrl(loop->encrypt, EVP_CTRL_GCM_GET_TAG, 16, packet + packet_length) != 1)
            return -1;
    } else {
        uint8_t roc[4] = {0, 0, 0, 0};
        if (EVP_EncryptInit_ex(loop->encrypt, NULL, NULL, NULL, iv) != 1
            || EVP_EncryptUpdate(loop->encrypt, packet + header_length, &length, packet + header_length, payload_length) != 1
            || !authenticate(loop, packet, packet_length, roc, packet + packet_length))
            return -1;
    }
    return packet_length + loop->tag_length;
}

static int unprotect(mb_srtp_loop *loop, int length) {
    uint8_t *packet = loop->buffer, iv[16];
    uint64_t index = (uint64_t)((packet[2] << 8) | packet[3]) | (loop->received_index & ~(uint64_t)0xFFFF);
    if (index + 0x8000 < loop->received_index) index += 0x10000;  // the sequence number wrapped
    if (index <= loop->received_index
        && (loop->received_index - index >= 64 || (loop->window >> (loop->received_index - index) & 1)))
        return -1;
    make_iv(loop, index, iv);
    int end = length - loop->tag_length, out = 0;
    if (loop->gcm) {
        if (EVP_DecryptInit_ex(loop->decrypt, NULL, NULL, NULL, iv) != 1
            || EVP_DecryptUpdate(loop->decrypt, NULL, &out, packet, header_length) != 1
            || EVP_DecryptUpdate(loop->decrypt, packet + header_length, &out, packet + header_length, end - header_length) != 1
            || EVP_CIPHER_CTX_ctrl(loop->decrypt, EVP_CTRL_GCM_SET_TAG, 16, packet + end) != 1
            || EVP_DecryptFinal_ex(loop->decrypt, packet + end, &out) != 1)
            return -1;
    } else {
        uint8_t roc[4] = {0, 0, 0, 0}, tag[20];
        if (!authenticate(loop, packet, (size_t)end, roc, tag) || CRYPTO_memcmp(tag, packet + end, (size_t)loop->tag_length) != 0
            || EVP_EncryptInit_ex(loop->decrypt, NULL, NULL, NULL, iv) != 1
            || EVP_EncryptUpdate(loop->decrypt, packet + header_length, &out, packet + header_length, end - header_length) != 1)
            return -1;
    }
    uint64_t advance = index - loop->received_index;
    loop->window = (advance >= 64 ? 0 : loop->window << advance) | 1;
    loop->received_index = index;
    return end;
}

int mb_srtp_loop_protect(mb_srtp_loop *loop, long iterations) {
    int length = -1;
    for (long i = 0; i < iterations; i++)
        if ((length = protect_next(loop)) < 0) return -1;
    return length;
}

int mb_srtp_loop_round_trip(mb_srtp_loop *loop, long iterations) {
    int length = -1;
    for (long i = 0; i < iterations; i++) {
        if ((length = protect_next(loop)) < 0 || (length = unprotect(loop, length)) < 0) return -1;
    }
    return length;
}

const char *mb_srtp_loop_openssl_version(void) { return OpenSSL_version(OPENSSL_VERSION); }
