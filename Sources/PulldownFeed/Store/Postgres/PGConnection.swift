import CLibPQ
import Foundation

/// Where and how to reach PostgreSQL, parsed once from a `postgres://` URL.
struct PGSettings: Sendable {
    /// The URL as libpq gets it (without our own `pool_size` parameter).
    let url: String
    /// The URL with any password masked, for messages.
    let target: String
    /// Pooled connections for requests (the change listener has one more of its own).
    let poolSize: Int

    init(url given: String, defaultPoolSize: Int) throws(StoreError) {
        var poolSize = max(1, defaultPoolSize)
        var url = given
        if let mark = given.firstIndex(of: "?") {
            var kept: [Substring] = []
            for parameter in given[given.index(after: mark)...].split(separator: "&") {
                if parameter.hasPrefix("pool_size=") {
                    guard let size = Int(parameter.dropFirst("pool_size=".count)), (1...1000).contains(size) else {
                        throw StoreError(path: Self.masked(given), reason: "pool_size must be a whole number from 1 to 1000",
                                         duringOpen: true)
                    }
                    poolSize = size
                } else {
                    kept.append(parameter)
                }
            }
            url = String(given[..<mark]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
        }
        self.url = url
        self.target = Self.masked(url)
        self.poolSize = poolSize
    }

    /// `postgres://user:secret@host/db` -> `postgres://user:***@host/db`.
    static func masked(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@") else { return url }
        let userInfo = authority[..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + ":***" + String(url[at...])
    }
}

/// One libpq connection with its prepared statements. Not thread-safe: the pool (or the listener
/// thread) gives it to one user at a time.
final class PGConnection {
    let handle: OpaquePointer
    let target: String
    /// Prepared statement names by SQL text; prepared on first use, per connection.
    private var statements: [String: String] = [:]
    /// Round trips that succeeded since the pool handed the connection out. A failure with none
    /// means nothing was done on it yet, so the operation may be retried on a fresh connection.
    var completedRoundTrips = 0

    /// Connects; a failure says where and why, e.g. "Connection refused".
    init(settings: PGSettings, duringOpen: Bool) throws(StoreError) {
        // Defaults first: values from the URL come later and win (libpq expands `dbname`).
        let pairs = [("connect_timeout", "5"), ("application_name", "pulldown"),
                     ("client_encoding", "UTF8"), ("dbname", settings.url)]
        let keywords = pairs.map { strdup($0.0) }
        let values = pairs.map { strdup($0.1) }
        defer {
            keywords.forEach { free($0) }
            values.forEach { free($0) }
        }
        let handle: OpaquePointer? = (keywords.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { keys in
            (values.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { vals in
                PQconnectdbParams(keys.baseAddress, vals.baseAddress, 1)
            }
        }
        guard let handle else {
            throw StoreError(path: settings.target, reason: "out of memory", duringOpen: duringOpen)
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let reason = Self.tidy(String(cString: PQerrorMessage(handle)))
            PQfinish(handle)
            throw StoreError(path: settings.target, reason: reason, duringOpen: duringOpen)
        }
        // NOTICEs ("relation already exists, skipping") would otherwise go to standard error.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        self.handle = handle
        self.target = settings.target
    }

    deinit {
        PQfinish(handle)
    }

    /// True once libpq saw the connection fail; such a connection is dropped, never reused.
    var isBroken: Bool { PQstatus(handle) != CONNECTION_OK }

    /// True while a transaction is open (or failed and not yet rolled back).
    var isInTransaction: Bool { PQtransactionStatus(handle) != PQTRANS_IDLE }

    /// libpq messages end in a newline and may span lines ("connection to server … failed: …").
    static func tidy(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: "; ")
    }

    func error(_ result: OpaquePointer?) -> StoreError {
        var reason = result.map { String(cString: PQresultErrorMessage($0)) } ?? ""
        if reason.isEmpty { reason = String(cString: PQerrorMessage(handle)) }
        reason = Self.tidy(reason)
        if reason.isEmpty { reason = "no answer from the server" }
        if isBroken { reason = "lost the connection: " + reason }
        return StoreError(path: target, reason: reason, duringOpen: false)
    }

    /// Runs SQL text with no parameters (DDL, BEGIN, COMMIT; several statements allowed).
    func execute(_ sql: String) throws(StoreError) {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result)
    }

    /// Runs a statement prepared once per connection, with text parameters (bytea as binary).
    @discardableResult
    func query(_ sql: String, _ parameters: [PGValue] = []) throws(StoreError) -> PGResult {
        let name = try prepared(sql, parameterCount: parameters.count)
        var buffers: [UnsafeMutablePointer<CChar>?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        for parameter in parameters {
            switch parameter {
            case .null:
                buffers.append(nil); lengths.append(0); formats.append(0)
            case .text(let text):
                buffers.append(strdup(text)); lengths.append(0); formats.append(0)
            case .int(let value):
                buffers.append(strdup(String(value))); lengths.append(0); formats.append(0)
            case .double(let value):
                buffers.append(strdup("\(value)")); lengths.append(0); formats.append(0)
            case .bytes(let bytes):
                let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, bytes.count))
                bytes.withUnsafeBytes { raw in
                    if let base = raw.baseAddress { UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: raw.count) }
                }
                buffers.append(buffer); lengths.append(Int32(bytes.count)); formats.append(1)
            }
        }
        defer { buffers.forEach { free($0) } }
        let values = buffers.map { UnsafePointer($0) }
        let result = values.withUnsafeBufferPointer { values in
            PQexecPrepared(handle, name, Int32(parameters.count), values.baseAddress, lengths, formats, 0)
        }
        do {
            try check(result)
        } catch {
            PQclear(result)
            throw error
        }
        return PGResult(result!)
    }

    private func prepared(_ sql: String, parameterCount: Int) throws(StoreError) -> String {
        if let name = statements[sql] { return name }
        let name = "p\(statements.count)"
        let result = PQprepare(handle, name, sql, Int32(parameterCount), nil)
        defer { PQclear(result) }
        try check(result)
        statements[sql] = name
        return name
    }

    private func check(_ result: OpaquePointer?) throws(StoreError) {
        let status = result.map { PQresultStatus($0) } ?? PGRES_FATAL_ERROR
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw error(result) }
        completedRoundTrips += 1
    }

    /// Ends a transaction left open by a failure; best effort (a broken connection is dropped anyway).
    func rollbackQuietly() {
        guard !isBroken, isInTransaction else { return }
        PQclear(PQexec(handle, "ROLLBACK"))
    }

    /// Streams rows into `COPY … FROM STDIN` (text format), one line per call of `line`.
    func copyIn(_ sql: String, rows: Int, line: (Int, inout [UInt8]) -> Void) throws(StoreError) {
        let start = PQexec(handle, sql)
        let status = start.map { PQresultStatus($0) } ?? PGRES_FATAL_ERROR
        guard status == PGRES_COPY_IN else {
            defer { PQclear(start) }
            throw error(start)
        }
        PQclear(start)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        var failed = false
        func flush() {
            guard !buffer.isEmpty, !failed else { return }
            let sent = buffer.withUnsafeBytes { raw in
                PQputCopyData(handle, raw.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(raw.count))
            }
            if sent != 1 { failed = true }
            buffer.removeAll(keepingCapacity: true)
        }
        for index in 0..<rows {
            line(index, &buffer)
            if buffer.count >= 1 << 20 { flush() }
        }
        flush()
        _ = PQputCopyEnd(handle, failed ? "client could not send the rows" : nil)
        var firstError: StoreError?
        while let result = PQgetResult(handle) {
            if PQresultStatus(result) != PGRES_COMMAND_OK, firstError == nil { firstError = error(result) }
            PQclear(result)
        }
        if let firstError { throw firstError }
        if failed { throw error(nil) }
        completedRoundTrips += 1
    }

    /// Appends `text` escaped for COPY's text format.
    static func appendCopyText(_ text: String, to buffer: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            default: buffer.append(byte)
            }
        }
    }
}

/// A parameter of a prepared statement.
enum PGValue {
    case null
    case text(String)
    case int(Int64)
    case double(Double)
    case bytes([UInt8])
}

/// A query's rows, in text format; cleared when released.
final class PGResult {
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        PQclear(handle)
    }

    var rowCount: Int { Int(PQntuples(handle)) }
    /// Rows changed by an INSERT, UPDATE or DELETE.
    var affectedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(handle, Int32(row), Int32(column)) == 1 }

    func string(_ row: Int, _ column: Int) -> String {
        let count = Int(PQgetlength(handle, Int32(row), Int32(column)))
        guard let value = PQgetvalue(handle, Int32(row), Int32(column)) else { return "" }
        return value.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }

    func int64(_ row: Int, _ column: Int) -> Int64 { Int64(string(row, column)) ?? 0 }
    func double(_ row: Int, _ column: Int) -> Double { Double(string(row, column)) ?? 0 }

    /// A bytea column in text format: `\x` then hex.
    func bytes(_ row: Int, _ column: Int) -> [UInt8] {
        let text = string(row, column)
        guard text.hasPrefix("\\x") else { return Array(text.utf8) }
        return Hex.decode(String(text.dropFirst(2)).lowercased()) ?? []
    }
}
