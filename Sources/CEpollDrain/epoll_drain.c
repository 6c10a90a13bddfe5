// A workaround for libmicrohttpd 0.9.75's epoll loop, linked into the program.
//
// Each of libmicrohttpd's threads drains its epoll set in a loop: while a call returned a full
// batch (its MAX_EVENTS, 128), it calls epoll_wait again, with the same timeout as the first
// call. When exactly 128 of a thread's connections are ready at once, the first call takes them
// all, the second finds nothing new and blocks until that timeout (the nearest connection
// timeout: up to --connection-timeout, 15 s), and the 128 wait unprocessed meanwhile: every
// connection of that thread stalls for seconds. (The code is the same in 1.0.1.)
//
// This definition of epoll_wait takes the place of the C library's for libmicrohttpd (the
// program's own symbol wins). It changes one thing: on a thread whose last call on the same
// epoll set returned a full batch of 128, the next call does not wait. Every other call, and
// every caller asking for another batch size (Dispatch asks for 16), passes through unchanged.
#include <stddef.h>
#include <sys/epoll.h>
#include "epoll_drain.h"

enum { MHD_MAX_EVENTS = 128 };

static __thread int full_batch_epoll_fd = -1;

int epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout) {
    if (maxevents == MHD_MAX_EVENTS && epfd == full_batch_epoll_fd) timeout = 0;
    // epoll_pwait without a signal mask is epoll_wait itself.
    int count = epoll_pwait(epfd, events, maxevents, timeout, NULL);
    full_batch_epoll_fd = (maxevents == MHD_MAX_EVENTS && count == maxevents) ? epfd : -1;
    return count;
}

int pulldown_epoll_drain_linked(void) {
    return 1;
}
