// OpenSSL 3 (libcrypto and libssl), wrapped once by the modules that own it: the native SRTP
// transform (RTP) and DTLS-SRTP (SecureTransport). Nothing above those modules sees a C type.
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/ec.h>
#include <openssl/bio.h>
