// GnuTLS's X.509 API: the local certificate authority creates its keys and certificates with it.
// (libmicrohttpd links GnuTLS too, for the TLS itself; only LocalCA sees this module.)
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <gnutls/crypto.h>

// gnutls_free is a macro around a function pointer, GNUTLS_CURVE_TO_BITS a macro with an
// argument: Swift sees neither.
static inline void pulldown_gnutls_free(void *pointer) {
    gnutls_free(pointer);
}

static inline unsigned int pulldown_gnutls_curve_bits(gnutls_ecc_curve_t curve) {
    return GNUTLS_CURVE_TO_BITS(curve);
}
