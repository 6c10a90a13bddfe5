import Foundation
import Hashing
import PulldownFeed
import XCTest
@testable import PulldownDataFile

/// What the store remembers of a data file: its entries, compared by what they say, so a file
/// saved again differently is the same file; and a mark written before entries were compared
/// (a digest of the bytes) still reads its file on.
final class DataFileMarkTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pulldown-mark-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The file written as `text`; the titles of the entries read past `mark`, and the new mark.
    private func read(_ text: String, after mark: DataSourceMark?) throws -> (titles: [String], mark: DataSourceMark) {
        let path = folder.appendingPathComponent("posts.json").path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        var titles: [String] = []
        let file = try DataFile(DataFileReference(path: path), after: mark)
        let next = try file.forEachEntry { titles.append($0.new.title) }
        return (titles, next)
    }

    private func isDiverged(_ error: any Error) -> Bool { (error as? DataFileError)?.diverged == true }

    func testTheSameEntriesWrittenAnotherWayAreTheSameFile() throws {
        let first = try read("[{\"title\": \"a\", \"likes\": 1},\n {\"title\": \"b\"}]", after: nil)
        XCTAssertEqual(first.titles, ["a", "b"])
        let again = try read("{\"likes\":1,\"title\":\"\\u0061\"}\n{\"title\": \"b\"}\n{\"title\": \"c\"}\n", after: first.mark)
        XCTAssertEqual(again.titles, ["c"], "NDJSON now, keys reordered, an escape: the same two entries, and one more")
        let unchanged = try read("{\"likes\":1,\"title\":\"\\u0061\"}\n{\"title\": \"b\"}\n{\"title\": \"c\"}\n", after: again.mark)
        XCTAssertEqual(unchanged.titles, [])
        XCTAssertEqual(unchanged.mark.digest, again.mark.digest)
        XCTAssertThrowsError(try read("[{\"title\": \"a\", \"likes\": 2}, {\"title\": \"b\"}, {\"title\": \"c\"}]", after: again.mark)) {
            XCTAssertTrue(isDiverged($0), "\($0)")
        }
        XCTAssertThrowsError(try read("[{\"title\": \"a\", \"likes\": 1}]", after: first.mark)) {
            XCTAssertTrue(isDiverged($0), "an entry removed: \($0)")
        }
    }

    func testAMarkOfTheBytesAloneStillReadsItsFileOn() throws {
        let taken = "[{\"title\": \"a\"}, {\"title\": \"b\"}"
        let legacy = DataSourceMark(digest: ContentHash.digest(of: Array(taken.utf8)),
                                    resume: Array("array \(taken.utf8.count) 1 \(taken.count) 2".utf8))
        let grown = try read(taken + ", {\"title\": \"c\"}]", after: legacy)
        XCTAssertEqual(grown.titles, ["c"])
        XCTAssertEqual(TakenIn(grown.mark)?.checkpoint.entries, 3)
        XCTAssertNotNil(TakenIn(grown.mark)?.chain, "from now on, by its entries")
        XCTAssertThrowsError(try read("[{\"title\": \"A\"}, {\"title\": \"b\"}, {\"title\": \"c\"}]", after: legacy)) {
            XCTAssertTrue(isDiverged($0), "\($0)")
        }
    }
}
