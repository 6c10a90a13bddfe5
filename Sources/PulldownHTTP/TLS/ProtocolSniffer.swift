import CMicroHTTPD
import Foundation
import Synchronization

/// On a TLS port, waits for each new connection's first byte and hands it to the daemon that
/// speaks its protocol: TLS to the TLS daemon, plain HTTP to the cleartext one (libmicrohttpd's
/// TLS daemon would only fail the handshake and close, which a browser shows as a reset).
///
/// Runs on a thread of its own with an epoll set of the waiting sockets, so a client that
/// connects and says nothing never holds up the accept loop. The byte is peeked, not read:
/// the daemon reads the connection from its start. `ProtocolSnifferState` decides.
final class ProtocolSniffer: Sendable {
    typealias Route = ProtocolSnifferState<Peer>.Route
    /// Hands a socket to the daemon for `route`; false when it refused (it has closed the socket).
    typealias Handover = @Sendable (_ socket: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t, _ route: Route) -> Bool

    /// A waiting connection's address, kept for the handover.
    struct Peer: @unchecked Sendable {
        // @unchecked: plain bytes, copied in and out.
        var address: sockaddr_storage
        var length: socklen_t
    }

    private let state: Mutex<ProtocolSnifferState<Peer>>
    private let handover: Handover
    private let closed: @Sendable () -> Void
    private let epoll: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    /// The server's clock, for how long a connection may wait for its first byte.
    private let clock: any ServerClock

    /// `closed` is told of every connection closed here, never handed over.
    init(timeout: Duration?, clock: any ServerClock, handover: @escaping Handover, closed: @escaping @Sendable () -> Void) {
        state = Mutex(ProtocolSnifferState(timeout: timeout))
        self.clock = clock
        self.handover = handover
        self.closed = closed
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        var ends: [Int32] = [-1, -1]
        guard epoll >= 0, pipe(&ends) == 0 else {
            fatalError("pulldown: cannot create the TLS port's epoll set: \(String(cString: strerror(errno)))")
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        (wakeRead, wakeWrite) = (ends[0], ends[1])
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: wakeRead))
        _ = epoll_ctl(epoll, EPOLL_CTL_ADD, wakeRead, &event)
    }

    deinit {
        Glibc.close(wakeRead)
        Glibc.close(wakeWrite)
        Glibc.close(epoll)
    }

    func start() {
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "pulldown.tls-sniffer"
        thread.start()
    }

    /// A connection just accepted (non-blocking): handed over now when its first byte is there
    /// already (one thread less between a busy client and its answer), else waits for it. Any thread.
    func add(socket: Int32, address: UnsafePointer<sockaddr>, length: socklen_t) {
        var byte: UInt8 = 0
        if recv(socket, &byte, 1, Int32(MSG_PEEK)) == 1 {
            if !handover(socket, address, length, ProtocolSnifferState<Peer>.route(firstByte: byte)) { closed() }
            return
        }
        var peer = Peer(address: sockaddr_storage(), length: length)
        withUnsafeMutableBytes(of: &peer.address) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: min(Int(length), target.count)))
        }
        let first = state.withLock { $0.added(socket: socket, peer: peer, now: clock.now()) }
        // One report, then the socket is out of the set: it is read once, then handed on.
        var event = epoll_event(events: EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLONESHOT.rawValue,
                                data: epoll_data_t(fd: socket))
        _ = epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event)
        // The thread waits with no deadline when none was set: it must now wait for this one.
        if first { wake() }
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)  // a full pipe already wakes the thread
    }

    /// Ends the thread and closes every connection still waiting. Call after the accept loop
    /// has stopped, so nothing is added any more.
    func stop() {
        stopping.store(true, ordering: .relaxed)
        wake()
        finished.wait()
        for socket in state.withLock({ $0.stop() }) { close(socket: socket) }
    }

    private func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while !stopping.load(ordering: .relaxed) {
            let ready = epoll_wait(epoll, &events, Int32(events.count), waitMilliseconds())
            for event in events.prefix(max(0, Int(ready))) {
                let socket = event.data.fd
                if socket == wakeRead {
                    var drain = [UInt8](repeating: 0, count: 64)
                    while read(wakeRead, &drain, drain.count) > 0 {}
                    continue
                }
                var byte: UInt8 = 0
                let peeked = recv(socket, &byte, 1, Int32(MSG_PEEK))
                if peeked < 0 && (errno == EAGAIN || errno == EINTR) {
                    // Woken with nothing to read yet: wait again.
                    var again = epoll_event(events: EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLONESHOT.rawValue,
                                            data: epoll_data_t(fd: socket))
                    _ = epoll_ctl(epoll, EPOLL_CTL_MOD, socket, &again)
                    continue
                }
                _ = epoll_ctl(epoll, EPOLL_CTL_DEL, socket, nil)
                perform(state.withLock { $0.read(socket: socket, firstByte: peeked == 1 ? byte : nil) })
            }
            for socket in state.withLock({ $0.expired(now: clock.now()) }) {
                close(socket: socket)
            }
        }
    }

    private func waitMilliseconds() -> Int32 {
        guard let deadline = state.withLock({ $0.nextDeadline }) else { return -1 }
        // Rounded up: woken before the deadline, the thread would find nothing expired.
        return Int32(clamping: max(0, clock.now().duration(to: deadline).nanoseconds / 1_000_000 + 1))
    }

    private func perform(_ action: ProtocolSnifferState<Peer>.Action) {
        switch action {
        case .none:
            break
        case .close(let socket):
            close(socket: socket)
        case .handOver(let socket, var peer, let route):
            let taken = withUnsafePointer(to: &peer.address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { handover(socket, $0, peer.length, route) }
            }
            if !taken { closed() }
        }
    }

    private func close(socket: Int32) {
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, socket, nil)
        Glibc.close(socket)
        closed()
    }
}
