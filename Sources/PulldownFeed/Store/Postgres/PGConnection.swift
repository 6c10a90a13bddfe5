import CLibPQ
import Foundation

/// One libpq connection with its prepared statements. Not thread-safe: the pool (or the listener
/// thread) gives it to one user at a time.
final class PGConnection: @unchecked Sendable {
    // @unchecked: the compiler cannot see that the pool lends a connection to one thread at a
    // time; that is what lets it sit in the pool's `Mutex` and move between threads.
    let handle: OpaquePointer
    /// The URL with any password masked, for messages.
    let location: String
    /// Prepared statement names by SQL text; prepared on first use, per connection.
    private var statements: [String: String] = [:]
    /// Round trips that succeeded since the pool handed the connection out. A failure with none
    /// means nothing was done on it yet, so the operation may be retried on a fresh connection.
    var completedRoundTrips = 0

    /// Connects; a failure (`StoreError.unavailable`) says where and why, e.g. "Connection refused".
    init(settings: PGSettings) throws(StoreError) {
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
            throw .unavailable(location: settings.location, reason: "out of memory")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let reason = Self.tidy(String(cString: PQerrorMessage(handle)))
            PQfinish(handle)
            throw .unavailable(location: settings.location, reason: reason)
        }
        // NOTICEs ("relation already exists, skipping") would otherwise go to standard error.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        self.handle = handle
        self.location = settings.location
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

    /// The failure `result` reports: the server's message, or libpq's when there is no result.
    /// A connection that broke on the way means the database is not answering.
    func error(_ result: OpaquePointer?) -> StoreError {
        var reason = result.map { String(cString: PQresultErrorMessage($0)) } ?? ""
        if reason.isEmpty { reason = String(cString: PQerrorMessage(handle)) }
        reason = Self.tidy(reason)
        if reason.isEmpty { reason = "no answer from the server" }
        if isBroken { return .unavailable(location: location, reason: "lost the connection: " + reason) }
        return .queryFailed(location: location, reason: reason)
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
            return PGResult(try check(result))
        } catch {
            PQclear(result)
            throw error
        }
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

    /// The result, when it is one of success.
    @discardableResult
    private func check(_ result: OpaquePointer?) throws(StoreError) -> OpaquePointer {
        guard let result, case let status = PQresultStatus(result), status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw error(result)
        }
        completedRoundTrips += 1
        return result
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
