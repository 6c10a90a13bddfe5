"""Driving a real `pulldown` process from Python: the live tests, `make bench`, `make soak` and
the README screenshots all start, call, stream from and touch the server through this package.

    server      start a pulldown on a free loopback port, read its logs, stop it by PID
    process     any background process stopped by its PID (pulldown, nginx), its memory
    waiting     wait_until and how long a hang may take before it fails
    client      one HTTP request on a fresh connection, its Reply, http_json, walking every page
    doctor      what a server's client doctor says about its clients
    raw         raw sockets: bytes in, bytes out, the health probe, crash markers on stderr
    events      a server-sent events client for GET /api/events
    touch       real touch input in Chromium through the DevTools protocol
    browser     Debian's Chromium, the phone and desktop screens, waits on the page's state
    page        the page's driver (Tab): real input, waits on events; Hold for slow answers
    crash       one crash-safety round: load, SIGKILL, restart, nothing acknowledged lost

The repository root is on the virtual environment's path (scripts/install-deps.sh writes a .pth
file), so `import pulldownkit` works from every folder with `.venv/bin/python`.
"""
