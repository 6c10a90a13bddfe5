import CEpollDrain
import CMicroHTTPD
import Foundation
import Synchronization

/// The state libmicrohttpd's C callbacks reach through their daemon's `DaemonContext`. Each
/// daemon holds a reference to it (taken at start, given back once the daemon has stopped), so
/// no callback can reach a freed object.
final class ServerCore: Sendable {
    let configuration: ServerConfiguration
    let handler: HTTPHandler
    /// Plain HTTP on a TLS port.
    let cleartextHandler: HTTPHandler
    let inFlight = Atomic<Int>(0)
    /// Signalled, once the stop has begun, each time the last request in flight finishes: the
    /// stop waits on it (or its deadline) instead of polling the count.
    private let settled = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    /// Answers waiting suspended; closed once the stop has answered them, after which none may
    /// suspend (libmicrohttpd aborts if it stops with a suspended connection).
    let suspended = ClosingRegistry<Exchange>()
    /// Open streamed bodies; closed once the stop has closed them, after which a new one is
    /// closed as soon as it is attached.
    let streams = ClosingRegistry<ResponseStream>()
    /// Accepts connections and holds the connection limit (libmicrohttpd has no listening socket).
    let acceptLoop: AcceptLoop
    /// On a TLS port, tells TLS from plain HTTP before a daemon takes the connection.
    private let sniffer = Mutex<ProtocolSniffer?>(nil)
    private let running = Mutex<[RunningDaemon]>([])
    private let stopState: Mutex<StopState>
    /// The whole-request deadline; nil when connections may stay forever (timeout 0).
    let deadlines: ReadDeadlines?

    /// What exists only while libmicrohttpd runs.
    private struct RunningDaemon: @unchecked Sendable {
        // @unchecked: libmicrohttpd lets any thread add connections to its daemon and stop it.
        let daemon: OpaquePointer
        /// The daemon's reference to its context.
        let context: Unmanaged<DaemonContext>
        /// The key and certificate handed to it, kept until it has stopped.
        let credentials: [UnsafeMutablePointer<CChar>]
    }

    init(configuration: ServerConfiguration, handler: @escaping HTTPHandler, cleartextHandler: @escaping HTTPHandler) {
        self.configuration = configuration
        self.handler = handler
        self.cleartextHandler = cleartextHandler
        self.deadlines = configuration.connectionTimeout > 0 ? ReadDeadlines(limit: configuration.connectionTimeout, clock: configuration.clock) : nil
        self.stopState = Mutex(StopState(gracePeriod: configuration.stopGracePeriod))
        self.acceptLoop = AcceptLoop(limit: Int(configuration.connectionLimit))
    }

    /// Starts libmicrohttpd's threads, then accepts on `fd` (bound and listening). On failure
    /// nothing is left running and `fd` is still the caller's.
    func start(listeningSocket fd: Int32) -> Bool {
        // The workaround for libmicrohttpd's epoll loop must be in the program (epoll_drain.c).
        precondition(pulldown_epoll_drain_linked() == 1)
        // The port's own daemon (TLS when configured), and on a TLS port the one for cleartext.
        let isTLS = configuration.tls != nil
        let contexts = [DaemonContext(core: self, handler: handler, isTLS: isTLS)]
            + (isTLS ? [DaemonContext(core: self, handler: cleartextHandler, isTLS: false)] : [])
        var started: [RunningDaemon] = []
        for context in contexts {
            guard let daemon = startDaemon(context) else {
                for running in started { stopDaemon(running) }
                return false
            }
            started.append(daemon)
        }
        // Started only now, so a failed start leaves no sweeper thread behind.
        deadlines?.start()
        running.withLock { $0 = started }
        guard started.count == 2 else {
            let daemon = started[0]
            acceptLoop.start(socket: fd) { socket, address, length in
                MHD_add_connection(daemon.daemon, socket, address, length) == .YES
            }
            return true
        }
        let (tls, cleartext) = (started[0], started[1])
        let timeout: Duration? = configuration.connectionTimeout > 0 ? .seconds(configuration.connectionTimeout) : nil
        let sniffer = ProtocolSniffer(timeout: timeout, clock: configuration.clock, handover: { socket, address, length, route in
            MHD_add_connection(route == .tls ? tls.daemon : cleartext.daemon, socket, address, length) == .YES
        }, closed: { [acceptLoop] in acceptLoop.connectionClosed() })
        sniffer.start()
        self.sniffer.withLock { $0 = sniffer }
        acceptLoop.start(socket: fd) { socket, address, length in
            sniffer.add(socket: socket, address: address, length: length)
            return true
        }
        return true
    }

    private func startDaemon(_ context: DaemonContext) -> RunningDaemon? {
        let retained = Unmanaged.passRetained(context)
        let pointer = retained.toOpaque()
        // The cleartext daemon of a TLS port only shows a page or a redirect: one thread.
        let threads = context.isTLS || configuration.tls == nil ? configuration.threads : 1
        var options: [MHD_OptionItem] = [
            option(.THREAD_POOL_SIZE, threads),
            option(.CONNECTION_TIMEOUT, Int(configuration.connectionTimeout)),
            // The accept loop holds the real limit. libmicrohttpd splits its own across the pool
            // and counts a connection only once its thread has taken it, so with the same figure
            // a burst could find one thread "full" and be closed unseen; this one is never reached.
            option(.CONNECTION_LIMIT, Int(configuration.connectionLimit) * max(1, threads)),
            option(.CONNECTION_MEMORY_LIMIT, configuration.connectionMemoryLimit),
            // Hand the raw target to RequestTarget: libmicrohttpd's own unescaping would turn
            // %2F into a separator and hide malformed escapes.
            option(.UNESCAPE_CALLBACK, function: unsafeBitCast(keepEscapes, to: UnsafeMutableRawPointer.self), pointer),
            option(.URI_LOG_CALLBACK, function: unsafeBitCast(requestBegan, to: UnsafeMutableRawPointer.self), pointer),
            option(.NOTIFY_COMPLETED, function: unsafeBitCast(requestEnded, to: UnsafeMutableRawPointer.self), pointer),
            option(.NOTIFY_CONNECTION, function: unsafeBitCast(connectionChanged, to: UnsafeMutableRawPointer.self), pointer),
        ]
        // MHD_USE_ITC: a connection handed over with MHD_add_connection wakes its thread at once.
        var flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ITC.rawValue
            | MHD_USE_TURBO.rawValue | MHD_USE_NO_LISTEN_SOCKET.rawValue
        var credentials: [UnsafeMutablePointer<CChar>] = []
        if context.isTLS, let tls = configuration.tls {
            flags |= MHD_USE_TLS.rawValue
            credentials = [strdup(tls.privateKeyPEM), strdup(tls.certificateChainPEM)]
            options.append(MHD_OptionItem(option: .HTTPS_MEM_KEY, value: 0, ptr_value: UnsafeMutableRawPointer(credentials[0])))
            options.append(MHD_OptionItem(option: .HTTPS_MEM_CERT, value: 0, ptr_value: UnsafeMutableRawPointer(credentials[1])))
        }
        options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
        let started = options.withUnsafeMutableBufferPointer { items in
            withVaList([MHD_OPTION.ARRAY.rawValue, items.baseAddress!, MHD_OPTION.END.rawValue]) { arguments in
                MHD_start_daemon_va(flags, 0, nil, nil, handleAccess, pointer, arguments)
            }
        }
        guard let started else {
            retained.release()
            credentials.forEach { free($0) }
            return nil
        }
        return RunningDaemon(daemon: started, context: retained, credentials: credentials)
    }

    private func stopDaemon(_ running: RunningDaemon) {
        MHD_stop_daemon(running.daemon)
        running.context.release()
        running.credentials.forEach { free($0) }
    }

    /// A request finished: once the stop has begun, the last one in flight wakes it.
    func requestFinished() {
        let left = inFlight.subtract(1, ordering: .sequentiallyConsistent).newValue
        if left == 0, stopping.load(ordering: .sequentiallyConsistent) { settled.signal() }
    }

    /// Where the stop sequence is (for tests that wait on it).
    var stopPhase: StopState.Phase { stopState.withLock { $0.phase } }

    /// Carries out the `StopState`, measuring its periods on the configured clock.
    func stop() {
        let clock = configuration.clock
        guard stopState.withLock({ $0.begin(now: clock.now()) }) == .stopAccepting,
              case let daemons = running.withLock({ $0 }), !daemons.isEmpty else { return }
        // Stop accepting: the accept loop ends and closes the listening socket, and connections
        // still silent on a TLS port are closed. Streams never finish by themselves: they are
        // closed now, not at the end of the grace period.
        stopping.store(true, ordering: .sequentiallyConsistent)
        acceptLoop.stop()
        sniffer.withLock { $0 }?.stop()
        for stream in streams.close() { stream.close() }
        while true {
            let inFlight = inFlight.load(ordering: .relaxed)
            switch stopState.withLock({ $0.step(now: clock.now(), inFlight: inFlight) }) {
            case .wait:
                guard let deadline = stopState.withLock({ $0.deadline }) else { return }
                clock.wait(for: settled, until: deadline)
            case .answerWaiting:
                // A request arriving on a kept-alive connection from now on is answered 503 at once.
                for exchange in suspended.close() { exchange.complete(with: Self.stoppingResponse) }
            case .stopThreads:
                daemons.forEach(stopDaemon)
                deadlines?.stop()
                running.withLock { $0 = [] }
                return
            case .stopAccepting, .none:
                return
            }
        }
    }

    /// The answer for requests still waiting when the server stops.
    static var stoppingResponse: HTTPResponse {
        var headers = HTTPHeaders([("Retry-After", "1")])
        headers.add("Connection", "close")
        return Problem(status: 503, title: "Service Unavailable", detail: "The server is stopping.",
                       headers: headers).response
    }

    private func option(_ name: MHD_OPTION, _ value: Int) -> MHD_OptionItem {
        MHD_OptionItem(option: name, value: value, ptr_value: nil)
    }

    /// Options that take a function and its context: the function goes in `value`, as
    /// libmicrohttpd's documentation of MHD_OPTION_ARRAY asks.
    private func option(_ name: MHD_OPTION, function: UnsafeMutableRawPointer, _ context: UnsafeMutableRawPointer) -> MHD_OptionItem {
        MHD_OptionItem(option: name, value: Int(bitPattern: function), ptr_value: context)
    }
}

/// What the C callbacks of one daemon reach through their context pointer: the handler its
/// requests go to, whether they arrive over TLS, and the server's shared state. The daemon holds
/// a reference to it, and through it to the core, until it has stopped.
final class DaemonContext: Sendable {
    let core: ServerCore
    let handler: HTTPHandler
    let isTLS: Bool

    init(core: ServerCore, handler: @escaping HTTPHandler, isTLS: Bool) {
        self.core = core
        self.handler = handler
        self.isTLS = isTLS
    }
}
