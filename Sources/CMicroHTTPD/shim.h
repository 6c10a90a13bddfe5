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

// The accept loop hands sockets to MHD_add_connection. accept4, which makes the socket
// non-blocking and close-on-exec in the same call, is declared by glibc only under _GNU_SOURCE,
// which Swift's view of the system headers does not define.
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
static inline int
pulldown_accept(int fd, struct sockaddr *address, socklen_t *length) {
    return accept4(fd, address, length, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

// MHD_set_response_options is variadic too. A response that states no length and is sent in the
// manner of HTTP/1.0 (no chunked coding, the connection closed after it): the one way 0.9.75
// answers HEAD for a body of unknown length with no body and no false Content-Length.
static inline enum MHD_Result
pulldown_response_without_length(struct MHD_Response *response) {
    return MHD_set_response_options(response, MHD_RF_HTTP_VERSION_1_0_ONLY, MHD_RO_END);
}

// On a TLS port, ProtocolSniffer waits with epoll for each new connection's first byte before
// handing it to the TLS daemon or the cleartext one. Swift's Glibc module leaves epoll out.
#include <sys/epoll.h>

// The bytes a socket holds that its peer has not acknowledged (SIOCOUTQ), or -1: TLSRecordCork
// corks an answer only when the socket has room for all of it. ioctl is variadic, which Swift
// cannot call.
#include <sys/ioctl.h>
#include <linux/sockios.h>
static inline int
pulldown_socket_unacknowledged(int fd) {
    int queued = 0;
    return ioctl(fd, SIOCOUTQ, &queued) == 0 ? queued : -1;
}
