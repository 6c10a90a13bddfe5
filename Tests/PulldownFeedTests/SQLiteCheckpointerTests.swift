import Foundation
import XCTest
@testable import PulldownFeed

final class SQLiteCheckpointerTests: XCTestCase {
    func testALogPastTheThresholdIsFoldedIntoTheFileOffTheCommitPath() throws {
        let folder = try makeTemporaryFolder(self)
        let path = folder.appendingPathComponent("feed.sqlite").path
        let store = try SQLiteStore(path: path)
        let checkpointer = try XCTUnwrap(store.checkpointer)
        let sizeBefore = try fileSize(path)
        // About 1,500 pages of 4 KiB in the log, over many commits.
        let body = String(repeating: "x", count: 4000)
        for batch in 0..<30 {
            try store.write { store in
                _ = try store.insertItems(count: 50) { index in
                    ItemDraft(title: "item \(batch)-\(index)", body: body, author: "me", createdAt: 1)
                }
            }
        }
        // The commits only scheduled the checkpoint; it ran on the checkpointer's own queue.
        checkpointer.waitForScheduledCheckpoints()
        XCTAssertGreaterThan(checkpointer.checkpointsRun, 0, "no checkpoint ran")
        // The checkpoint copied the logged pages into the database file itself.
        XCTAssertGreaterThan(try fileSize(path), sizeBefore + 1_000_000)
    }

    func testADatabaseInMemoryHasNoCheckpointer() throws {
        XCTAssertNil(try SQLiteStore(path: ":memory:").checkpointer)
    }

    private func fileSize(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }
}
