import Foundation

/// Creates the listening socket (non-blocking, close-on-exec) that `AcceptLoop` accepts on, so
/// that a bad host or a port in use gives the system's own reason instead of a bare failure.
enum ListeningSocket {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Binds and listens; returns the descriptor and the port actually bound.
    static func open(host: String, port: UInt16, backlog: Int32) throws(Failure) -> (fd: Int32, port: UInt16) {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let lookup = getaddrinfo(host, String(port), &hints, &list)
        guard lookup == 0, let first = list else {
            throw Failure(description: "cannot use host \(host): \(String(cString: gai_strerror(lookup)))")
        }
        defer { freeaddrinfo(list) }

        let family = first.pointee.ai_family
        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "cannot create a socket: \(errorText())") }
        // Close-on-exec, and non-blocking: the accept loop waits in poll, never in accept.
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            let reason = errno == EADDRINUSE ? "the port is already in use" : errorText()
            close(fd)
            throw Failure(description: "cannot listen on \(host):\(port): \(reason)")
        }
        guard listen(fd, backlog) == 0 else {
            let reason = errorText()
            close(fd)
            throw Failure(description: "cannot listen on \(host):\(port): \(reason)")
        }
        return (fd, boundPort(fd))
    }

    private static func boundPort(_ fd: Int32) -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let isIPv6 = storage.ss_family == sa_family_t(AF_INET6)
        return withUnsafePointer(to: &storage) { pointer in
            if isIPv6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }
}
