import Foundation
import XCTest
@testable import PulldownApp

final class TimestampTests: XCTestCase {
    func testFormatsUTCWithSecondsAndZ() {
        XCTAssertEqual(Timestamp.iso8601(Date(timeIntervalSince1970: 0)), "1970-01-01T00:00:00Z")
        XCTAssertEqual(Timestamp.iso8601(Date(timeIntervalSince1970: 1_796_024_409)), "2026-11-30T07:40:09Z")
        XCTAssertEqual(Timestamp.iso8601(Date(timeIntervalSince1970: 951_782_400.999)), "2000-02-29T00:00:00Z")
    }

    func testMillisecondsWhenAskedFor() {
        XCTAssertEqual(Timestamp.iso8601(Date(timeIntervalSince1970: 951_782_400.9996), milliseconds: true), "2000-02-29T00:00:00.999Z")
        XCTAssertEqual(Timestamp.iso8601(Date(timeIntervalSince1970: 1_796_024_409.25), milliseconds: true), "2026-11-30T07:40:09.250Z")
        XCTAssertEqual(Timestamp.iso8601(Date(timeIntervalSince1970: 1_796_024_409.1), milliseconds: true), "2026-11-30T07:40:09.100Z")
        XCTAssertEqual(Timestamp.iso8601(Date(timeIntervalSince1970: 1_796_024_409.9999), milliseconds: true), "2026-11-30T07:40:09.999Z")
        XCTAssertEqual(Timestamp.iso8601(Date(timeIntervalSince1970: 0), milliseconds: true), "1970-01-01T00:00:00.000Z")
    }

    func testAgreesWithFoundationsFormatterOnManyDates() {
        let formatter = ISO8601DateFormatter()
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let date = Date(timeIntervalSince1970: Double(UInt32.random(in: 0...4_000_000_000, using: &generator)))
            XCTAssertEqual(Timestamp.iso8601(date), formatter.string(from: date))
        }
    }
}
