// See epoll_drain.c: an epoll_wait that never blocks right after a full batch of 128 events.
#ifndef PULLDOWN_EPOLL_DRAIN_H
#define PULLDOWN_EPOLL_DRAIN_H

/// Referenced from Swift so the linker keeps the workaround in the program. Returns 1.
int pulldown_epoll_drain_linked(void);

#endif
