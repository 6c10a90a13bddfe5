// OpenSSL's libcrypto, for HMAC-SHA256 over session ids (the server can tell the ids it issued).
#include <openssl/hmac.h>
#include <openssl/evp.h>
#include <openssl/crypto.h>
