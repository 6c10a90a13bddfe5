// libmicrohttpd's public header. microhttpd.h needs the socket types declared first.
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <stdint.h>
#include <stdarg.h>
#include <microhttpd.h>

// MHD_get_connection_info is variadic, which Swift cannot call; this asks for one fact.
static inline const union MHD_ConnectionInfo *
pulldown_connection_info(struct MHD_Connection *connection, enum MHD_ConnectionInfoType type) {
    return MHD_get_connection_info(connection, type);
}
