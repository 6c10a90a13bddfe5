import Foundation

/// A blocking loopback HTTP/1.1 client on a plain socket, so the tests see exactly the bytes
/// the server sends and control exactly the bytes it receives.
final class RawClient {
    let fd: Int32
    private var buffer: [UInt8] = []

    struct Response {
        let status: Int
        let headers: [(String, String)]
        let body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(port: UInt16, timeoutSeconds: Int = 5) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw Failure(description: "connect failed: \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(fd) }

    func send(_ text: String) throws {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeMutableBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(description: "send failed: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    /// Reads more bytes; false at end of stream.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw Failure(description: "recv failed: \(String(cString: strerror(errno)))") }
        if count == 0 { return false }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }

    /// Reads one response (Content-Length framed; no body for HEAD, 1xx, 204, 304).
    func readResponse(forHead: Bool = false) throws -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        var end: Int?
        while end == nil {
            if let found = buffer.indices.dropLast(3).first(where: { Array(buffer[$0..<$0 + 4]) == separator }) {
                end = found
            } else if try !fill() {
                throw Failure(description: "connection closed before a full response; got \(buffer.count) bytes")
            }
        }
        let head = String(decoding: buffer[0..<end!], as: UTF8.self)
        buffer.removeFirst(end! + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure(description: "bad status line in \(head)") }
        let headers = lines.map { line -> (String, String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
        }
        let response = Response(status: status, headers: headers, body: [])
        let length = forHead || status == 304 || status == 204 ? 0 : Int(response.header("Content-Length") ?? "0") ?? 0
        while buffer.count < length {
            guard try fill() else { throw Failure(description: "connection closed inside a body") }
        }
        let body = Array(buffer[0..<length])
        buffer.removeFirst(length)
        return Response(status: status, headers: headers, body: body)
    }

    /// Whether the server closed the connection (reads until end of stream or timeout).
    func isClosedByServer() -> Bool {
        (try? fill()) == false
    }

    /// Reads until `marker` has arrived and returns everything up to and including it (for
    /// streamed bodies, whose chunks come whenever the server writes).
    func read(through marker: String) throws -> String {
        let needle = Array(marker.utf8)
        while true {
            if buffer.count >= needle.count,
               let start = buffer.indices.dropLast(needle.count - 1).first(where: { Array(buffer[$0..<$0 + needle.count]) == needle }) {
                let text = String(decoding: buffer[0..<start + needle.count], as: UTF8.self)
                buffer.removeFirst(start + needle.count)
                return text
            }
            guard try fill() else { throw Failure(description: "connection closed before \(marker)") }
        }
    }
}
