import XCTest
@testable import PulldownDataFile

/// A long import's progress line: how far, of about how many, redrawn at most ten times a second.
final class ImportProgressTests: XCTestCase {
    func testTheLineSaysHowFarOfAboutHowManyAtMostEveryTenthOfASecond() {
        var progress = ImportProgress(name: "blog.json", fileBytes: 41_000_000, started: 100)
        XCTAssertEqual(progress.read(1, upTo: 420, now: 100), "reading blog.json: 1 of about 98,000 entries")
        XCTAssertNil(progress.read(2, upTo: 840, now: 100.05), "too soon")
        XCTAssertEqual(progress.read(12_345, upTo: 5_100_000, now: 100.2), "reading blog.json: 12,345 of about 99,000 entries")
        XCTAssertEqual(progress.stored(3000, of: 100_000, now: 103), "storing blog.json: 3,000 of 100,000 entries")
        XCTAssertEqual(progress.finished(entries: 100_000, now: 104.94), "imported 100,000 entries from blog.json in 4.9 s")
    }

    func testTheEstimateIsNeverBelowWhatWasRead() {
        var progress = ImportProgress(name: "f", fileBytes: 100, started: 0)
        XCTAssertEqual(progress.read(7, upTo: 100, now: 0), "reading f: 7 of about 7 entries")
        XCTAssertEqual(ImportProgress.rounded(123_456), 120_000)
        XCTAssertEqual(ImportProgress.rounded(99), 99)
    }

    func testNumbersAreGroupedByThousands() {
        XCTAssertEqual([0, 999, 1000, 12_345, 1_000_000, -1234].map { Thousands.grouped($0) },
                       ["0", "999", "1,000", "12,345", "1,000,000", "-1,234"])
    }
}
