import Foundation
import XCTest
@testable import PulldownFeed

/// 2026-11-30 07:41:00 UTC: a fixed "now" so every run sees the same days.
let testNow = Date(timeIntervalSince1970: 1_795_938_060)

func makeFeed(
    path: String = ":memory:", clock: ManualClock = ManualClock(testNow),
    newItemsEvery: TimeInterval = 5, sessionTTL: TimeInterval = 30 * 86400
) throws -> Feed {
    var configuration = FeedConfiguration()
    configuration.newItemsEvery = newItemsEvery
    configuration.sessionTTL = sessionTTL
    return Feed(store: try SQLiteStore(path: path), clock: clock, configuration: configuration)
}

/// A fresh folder under the system temp folder, removed when the test ends.
func makeTemporaryFolder(_ test: XCTestCase) throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("pulldown-feed-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock {
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        try? FileManager.default.removeItem(at: url)
    }
    return url
}
