import CGnuTLS
import CMicroHTTPD
import Glibc

/// Sends a small answer over TLS as one record instead of two.
///
/// libmicrohttpd 0.9.75 sends an answer's head and body with two `gnutls_record_send` calls (it
/// joins them with writev only without TLS): two TLS records, two system calls and, on loopback,
/// half the answers a second of one record (measured: docs/performance.md#https). GnuTLS can
/// hold records back (`gnutls_record_cork`) and send what it held as one (`…_uncork`). The
/// exchange corks the session before it queues a whole answer, and uncorks it when
/// libmicrohttpd reports the answer complete (`requestEnded`), which it does before it closes
/// or reads the next request.
///
/// Uncorking writes to a non-blocking socket, and what does not fit would stay held with nobody
/// to send it. So an answer is corked only when the socket has room for it twice over
/// (`fits`): nothing else writes to the socket until the uncork, so its room can only grow.
enum TLSRecordCork {
    /// The largest answer corked: a TLS record's plaintext. Larger ones are sent as they are.
    static let largestAnswer = 16 * 1024

    /// Whether an answer of about `answerBytes` may be held back on a socket holding
    /// `unacknowledged` bytes in a send buffer of `sendBuffer`.
    static func fits(answerBytes: Int, unacknowledged: Int, sendBuffer: Int) -> Bool {
        answerBytes <= largestAnswer && unacknowledged >= 0 && 2 * answerBytes <= sendBuffer - unacknowledged
    }

    /// The size of an answer as it goes out: its fields and body, and a margin for the status
    /// line and the fields libmicrohttpd adds (Date, Content-Length, Connection).
    static func estimatedSize(of response: HTTPResponse, sendsBody: Bool) -> Int {
        response.headers.reduce(256) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
            + (sendsBody ? response.body.count : 0)
    }

    /// Corks the connection's TLS session if an answer of `answerBytes` fits; true when it did.
    static func cork(_ connection: OpaquePointer, answerBytes: Int) -> Bool {
        guard let session = session(of: connection),
              let fd = pulldown_connection_info(connection, .CONNECTION_INFO_CONNECTION_FD)?.pointee.connect_fd else { return false }
        var sendBuffer: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sendBuffer, &length) == 0,
              fits(answerBytes: answerBytes, unacknowledged: Int(pulldown_socket_unacknowledged(fd)),
                   sendBuffer: Int(sendBuffer)) else { return false }
        gnutls_record_cork(session)
        return true
    }

    /// Sends what the session holds. The room checked when corking makes this one write; should
    /// the socket still be full, it waits for room a second at a time, and past `patience`
    /// seconds shuts the connection down rather than leave the answer held.
    static func uncork(_ connection: OpaquePointer, patience: Int) {
        guard let session = session(of: connection) else { return }
        var waited = 0
        while true {
            let result = gnutls_record_uncork(session, 0)
            guard result == GNUTLS_E_AGAIN || result == GNUTLS_E_INTERRUPTED else { return }
            guard let fd = pulldown_connection_info(connection, .CONNECTION_INFO_CONNECTION_FD)?.pointee.connect_fd else { return }
            guard waited < max(1, patience) else {
                shutdown(fd, Int32(SHUT_RDWR))
                return
            }
            var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&ready, 1, 1000)
            waited += 1
        }
    }

    private static func session(of connection: OpaquePointer) -> gnutls_session_t? {
        pulldown_connection_info(connection, .CONNECTION_INFO_GNUTLS_SESSION)?.pointee.tls_session.map { OpaquePointer($0) }
    }
}
