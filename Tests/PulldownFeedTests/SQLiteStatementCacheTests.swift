import CSQLite
import XCTest
@testable import PulldownFeed

/// The statement cache hashes only a statement's length and last bytes, so statements that share
/// both must still be told apart by their whole text.
final class SQLiteStatementCacheTests: XCTestCase {
    func testStatementsAlikeInLengthAndEndingAreDistinct() throws {
        let connection = try SQLiteConnection(path: ":memory:", flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let one = "SELECT 1 AS n, 'same ending'"
        let two = "SELECT 2 AS n, 'same ending'"
        XCTAssertEqual(one.utf8.count, two.utf8.count)
        func value(_ sql: String) throws -> Int64 {
            try connection.withStatement(sql) { statement in
                XCTAssertTrue(try statement.step())
                return statement.int64(0)
            }
        }
        for _ in 0..<3 {
            XCTAssertEqual(try value(one), 1)
            XCTAssertEqual(try value(two), 2)
        }
    }
}
