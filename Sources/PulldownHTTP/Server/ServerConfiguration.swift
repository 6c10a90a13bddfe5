import Foundation

/// How the server listens and the limits it puts on each client. Every limit is named here
/// so that it is set on purpose, not left to a library default.
public struct ServerConfiguration: Sendable {
    /// Loopback by default: a demo backend should not be reachable from the network unless asked.
    public var host = "127.0.0.1"
    /// 0 asks the system for a free port; `HTTPServer.port` tells which one it gave.
    public var port: UInt16 = 8080
    /// Worker threads, each with its own epoll loop; one per core measured fastest.
    public var threads = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Seconds a connection may stay silent before it is closed, and the time it has to send a
    /// whole request (from opening, or from its previous answer): libmicrohttpd's own timeout
    /// counts only silence, so a client sending a byte a second would otherwise never be cut off.
    public var connectionTimeout: UInt32 = 15
    /// Connections open at once across all threads; more wait in the listen backlog.
    public var connectionLimit: UInt32 = 4000
    /// Memory for one connection's request line, headers and buffers. Headers larger than
    /// this are refused by libmicrohttpd (431) before any handler runs. libmicrohttpd zeroes
    /// the whole pool between requests, so a bigger pool costs time on every request:
    /// 64 KiB halved the static-file rate measured with 16 KiB.
    var connectionMemoryLimit = 16 * 1024
    /// The largest request body accepted; a larger one gets 413.
    var maxBodySize = 64 * 1024
    /// How long a stop waits for in-flight requests before answering the rest with 503.
    var stopGracePeriod: Duration = .milliseconds(600)
    /// The time the server's waits are measured on: the stop's grace period, the whole-request
    /// deadline, a TLS port's wait for a first byte (tests move a `ManualServerClock`).
    var clock: any ServerClock = SystemServerClock()
    /// One line per request on standard error.
    public var accessLog = true
    var listenBacklog: Int32 = 1024
    /// When set, the port speaks TLS with this identity; a connection that opens with plain
    /// HTTP instead goes to the server's cleartext handler (see `HTTPServer`).
    public var tls: TLSIdentity?

    public init() {}
}
