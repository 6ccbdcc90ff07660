// OpenSSL 3 (libcrypto and libssl), wrapped once by the modules that own it: the native SRTP
// transform (RTP) and DTLS-SRTP (SecureTransport). Nothing above those modules sees a C type.
// The SRTP transform keeps SHA-1's inner and outer HMAC states as plain SHA_CTX values (copied per
// packet, no allocation); that low-level API is deprecated in OpenSSL 3, which must not warn here.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/ec.h>
#include <openssl/bio.h>
