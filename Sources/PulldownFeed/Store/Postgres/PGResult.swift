import CLibPQ
import Hashing

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

/// One row of a `PGResult`, for decoding shared with SQLite (`StoreRow`).
struct PGRow: StoreRow {
    let result: PGResult
    let index: Int

    func int64(_ column: Int32) -> Int64 { result.int64(index, Int(column)) }
    func double(_ column: Int32) -> Double { result.double(index, Int(column)) }
    func string(_ column: Int32) -> String { result.string(index, Int(column)) }
    func isNull(_ column: Int32) -> Bool { result.isNull(index, Int(column)) }
}
