// Nettle: HMAC-SHA256 over session ids (the server can tell the ids it issued), and SHA-256
// digests (hmac.h brings sha2.h). A keyed context is a plain struct: keyed once, then copied per
// message, so no call allocates or locks.
#include <nettle/hmac.h>
#include <nettle/memops.h>
