// Many server-sent event subscribers in one process, for `make bench` (scenario "live").
//
//   sse_clients PORT COUNT TIMEOUT_SECONDS
//
// Opens COUNT connections to 127.0.0.1:PORT, GET /api/events on each, and watches them all with
// epoll. Prints "READY" once every stream has sent its first bytes (the `retry:` line). Then, for
// each line "WAIT ID" read on standard input, waits until every stream has received an `items`
// event whose id is ID or more, and prints "GOT n t1 t2 ..." with the CLOCK_MONOTONIC times in
// nanoseconds at which each stream received it (the same clock as Python's time.monotonic_ns()),
// or "GOT n ..." with fewer times when TIMEOUT_SECONDS passed first. Ends at end of input, or after
// TIMEOUT_SECONDS with nothing to do; it never runs longer than that past its last command.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    int fd;
    int open;             // the response head and retry line arrived
    long long newest;     // the largest `id:` of an items event seen
    long long newest_at;  // when it arrived
    long long received;   // when the awaited id arrived (0: not yet)
    char tail[64];        // the end of the previous read, so a field split across reads is found
    size_t tail_len;
} Stream;

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

// Finds "\nid: N\n" fields in `text` and keeps the largest N.
static void scan_ids(Stream *s, const char *text, size_t length) {
    const char *p = text, *end = text + length;
    while ((p = memmem(p, (size_t)(end - p), "\nid: ", 5)) != NULL) {
        p += 5;
        long long id = 0;
        const char *q = p;
        while (q < end && *q >= '0' && *q <= '9') id = id * 10 + (*q++ - '0');
        if (q < end && *q == '\n' && id > s->newest) s->newest = id;
    }
}

static void on_readable(Stream *s, long long awaited) {
    char buffer[16384 + 64];
    for (;;) {
        memcpy(buffer, s->tail, s->tail_len);
        ssize_t n = recv(s->fd, buffer + s->tail_len, 16384, 0);
        if (n <= 0) {
            if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) { close(s->fd); s->fd = -1; }
            return;
        }
        size_t total = s->tail_len + (size_t)n;
        if (!s->open && memmem(buffer, total, "retry:", 6)) s->open = 1;
        long long before = s->newest;
        scan_ids(s, buffer, total);
        if (s->newest != before) s->newest_at = now_ns();
        if (awaited > 0 && s->received == 0 && s->newest >= awaited) s->received = s->newest_at;
        s->tail_len = total < sizeof s->tail ? total : sizeof s->tail;
        memcpy(s->tail, buffer + total - s->tail_len, s->tail_len);
    }
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: sse_clients PORT COUNT TIMEOUT_SECONDS\n"); return 2; }
    int port = atoi(argv[1]), count = atoi(argv[2]), timeout = atoi(argv[3]);
    Stream *streams = calloc((size_t)count, sizeof *streams);
    int epoll = epoll_create1(0);
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    const char *request = "GET /api/events HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n";
    for (int i = 0; i < count; i++) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
            fprintf(stderr, "connection %d failed: %s\n", i, strerror(errno));
            return 1;
        }
        if (send(fd, request, strlen(request), MSG_NOSIGNAL) < 0) { perror("send"); return 1; }
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
        streams[i].fd = fd;
        struct epoll_event event = { .events = EPOLLIN, .data.u32 = (uint32_t)i };
        epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event);
    }
    fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
    struct epoll_event input = { .events = EPOLLIN, .data.u32 = UINT32_MAX };
    epoll_ctl(epoll, EPOLL_CTL_ADD, 0, &input);

    int ready_said = 0;
    long long awaited = 0, deadline = now_ns() + (long long)timeout * 1000000000LL;
    char line[128];
    size_t line_len = 0;
    struct epoll_event events[1024];
    while (now_ns() < deadline) {
        int n = epoll_wait(epoll, events, 1024, 50);
        for (int e = 0; e < n; e++) {
            uint32_t index = events[e].data.u32;
            if (index != UINT32_MAX) {
                if (streams[index].fd >= 0) on_readable(&streams[index], awaited);
                continue;
            }
            char c;
            ssize_t got;
            while ((got = read(0, &c, 1)) == 1) {
                if (c != '\n') { if (line_len < sizeof line - 1) line[line_len++] = c; continue; }
                line[line_len] = 0;
                line_len = 0;
                if (strncmp(line, "WAIT ", 5) == 0) {
                    awaited = atoll(line + 5);
                    deadline = now_ns() + (long long)timeout * 1000000000LL;
                    for (int i = 0; i < count; i++)
                        streams[i].received = streams[i].newest >= awaited ? streams[i].newest_at : 0;
                }
            }
            if (got == 0) { deadline = 0; break; }   // end of input: done
        }
        if (!ready_said) {
            int open = 0;
            for (int i = 0; i < count; i++) open += streams[i].open;
            if (open == count) { printf("READY\n"); fflush(stdout); ready_said = 1; }
        }
        if (awaited > 0) {
            int got = 0;
            for (int i = 0; i < count; i++) got += streams[i].received != 0;
            if (got == count || now_ns() >= deadline) {
                printf("GOT %d", got);
                for (int i = 0; i < count; i++) if (streams[i].received) printf(" %lld", streams[i].received);
                printf("\n");
                fflush(stdout);
                awaited = 0;
                deadline = now_ns() + (long long)timeout * 1000000000LL;
            }
        }
    }
    if (!ready_said) {
        int open = 0;
        for (int i = 0; i < count; i++) open += streams[i].open;
        printf("OPEN %d\n", open);
    }
    for (int i = 0; i < count; i++) if (streams[i].fd >= 0) close(streams[i].fd);
    return 0;
}
