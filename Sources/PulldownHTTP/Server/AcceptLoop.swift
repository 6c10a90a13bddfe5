import CMicroHTTPD
import Foundation
import Synchronization

/// Accepts connections on a thread of its own and hands each to libmicrohttpd.
///
/// libmicrohttpd runs without a listening socket of its own (`MHD_USE_NO_LISTEN_SOCKET`): its
/// `MHD_quiesce_daemon` races with busy worker threads over the listening socket and can abort
/// the process (0.9.75, and still in 1.0.1). Here stopping to accept is ending this thread and
/// closing the socket, which nothing else touches. `AcceptLoopState` holds the connection limit.
final class AcceptLoop: Sendable {
    /// Hands an accepted socket to libmicrohttpd; false when it refused (it has closed the socket).
    typealias Handover = @Sendable (_ socket: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Bool

    private let state: Mutex<AcceptLoopState>
    /// Written to wake the thread: a stop, or a slot freed while it waits at the limit.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let stopping = Atomic<Bool>(false)
    private let running = Mutex<(socket: Int32, finished: DispatchSemaphore)?>(nil)

    init(limit: Int) {
        state = Mutex(AcceptLoopState(limit: limit))
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { fatalError("pulldown: cannot create a pipe: \(String(cString: strerror(errno)))") }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        (wakeRead, wakeWrite) = (ends[0], ends[1])
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Starts accepting on `socket` (listening, non-blocking), handing each connection to `handover`.
    func start(socket: Int32, handover: @escaping Handover) {
        let finished = DispatchSemaphore(value: 0)
        running.withLock { $0 = (socket, finished) }
        let thread = Thread { [self] in
            run(socket: socket, handover: handover)
            finished.signal()
        }
        thread.name = "pulldown.accept"
        thread.start()
    }

    /// libmicrohttpd reported a connection closed: its slot is free.
    func connectionClosed() {
        if state.withLock({ $0.closed() }) { wake() }
    }

    /// Stops accepting and closes the listening socket; returns once the thread has ended.
    /// Connections still in the backlog are refused by the kernel from then on.
    func stop() {
        guard let (socket, finished) = running.withLock({ current in defer { current = nil }; return current }) else { return }
        stopping.store(true, ordering: .relaxed)
        wake()
        finished.wait()
        close(socket)
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)  // a full pipe already wakes the thread
    }

    private func run(socket: Int32, handover: Handover) {
        var step = AcceptLoopState.Step.accept
        while !stopping.load(ordering: .relaxed) {
            switch step {
            case .waitForClose:
                waitForWake(socket: nil, milliseconds: -1)
            case .backOff(let milliseconds):
                waitForWake(socket: nil, milliseconds: milliseconds)
            case .accept:
                var address = sockaddr_storage()
                var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
                let client = withUnsafeMutablePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        pulldown_accept(socket, $0, &length)
                    }
                }
                if client >= 0 {
                    state.withLock { $0.accepted() }
                    let taken = withUnsafePointer(to: &address) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { handover(client, $0, length) }
                    }
                    if !taken { connectionClosed() }
                } else if errno == EAGAIN || errno == EWOULDBLOCK {
                    waitForWake(socket: socket, milliseconds: -1)
                } else {
                    let failure = state.withLock { $0.acceptFailed(error: errno) }
                    if let warning = failure.warning { ErrorLog.write(warning) }
                    if case .backOff = failure.step {
                        step = failure.step
                        continue
                    }
                }
            }
            step = state.withLock { $0.nextStep() }
        }
    }

    /// Waits for the wake pipe (and for `socket` to have a connection, when given), at most
    /// `milliseconds` (-1: no limit), then empties the pipe.
    private func waitForWake(socket: Int32?, milliseconds: Int32) {
        var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        if let socket { fds.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0)) }
        _ = poll(&fds, nfds_t(fds.count), milliseconds)
        var drain = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &drain, drain.count) > 0 {}
    }
}
