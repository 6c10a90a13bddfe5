import Foundation
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd, over TLS when `ServerConfiguration.tls` is set.
///
/// It reads each request completely (with a body limit), hands it to one `HTTPHandler`, and
/// sends whatever the handler answers, now or later. libmicrohttpd runs the connections on
/// `threads` epoll loops of its own; handlers run on those threads, so they must not block
/// for long: a slow answer should use the `Responder` later instead.
///
/// On a TLS port, a connection that opens with plain HTTP (a browser given `http://`) goes to
/// `cleartextHandler` on a one-thread daemon of its own (`ProtocolSniffer` tells them apart).
/// Connections handed in with `MHD_add_connection` are served as the daemon's flags say: a
/// daemon started with `MHD_USE_TLS` runs the GnuTLS handshake on them (checked with 0.9.75).
public final class HTTPServer: Sendable {
    let core: ServerCore
    /// The port the server listens on (the one the system chose when 0 was asked for).
    public let port: UInt16

    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Binds, starts the worker threads and begins accepting connections. `cleartextHandler`
    /// answers plain HTTP on a TLS port (by default a 400 that says the port speaks HTTPS).
    public init(configuration: ServerConfiguration, handler: @escaping HTTPHandler,
                cleartextHandler: HTTPHandler? = nil) throws(StartError) {
        let socket: (fd: Int32, port: UInt16)
        do {
            socket = try ListeningSocket.open(host: configuration.host, port: configuration.port,
                                              backlog: configuration.listenBacklog)
        } catch {
            throw StartError(description: error.description)
        }
        self.core = ServerCore(configuration: configuration, handler: handler,
                               cleartextHandler: cleartextHandler ?? Self.refuseCleartext)
        self.port = socket.port
        guard core.start(listeningSocket: socket.fd) else {
            close(socket.fd)
            let tls = configuration.tls == nil ? "" : " (is the TLS key or certificate malformed?)"
            throw StartError(description: "the HTTP server could not start on \(configuration.host):\(socket.port)\(tls)")
        }
    }

    /// A server let go without `stop()` stops now: libmicrohttpd's threads must not outlive it.
    deinit {
        core.stop()
    }

    /// The default answer to plain HTTP on a TLS port.
    static let refuseCleartext: HTTPHandler = { _, responder in
        responder.send(Problem.badRequest("This port speaks HTTPS: use an https:// URL.").response)
    }

    /// Requests received and not yet finished.
    var requestsInFlight: Int { core.inFlight.load(ordering: .relaxed) }

    /// Stops accepting, lets in-flight requests finish for the grace period, answers any still
    /// waiting with 503, then stops the threads. Safe to call more than once.
    public func stop() {
        core.stop()
    }
}
