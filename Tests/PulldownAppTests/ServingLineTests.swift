import PulldownFeed
import XCTest
@testable import PulldownApp
@testable import PulldownDataFile

/// The line after `Listening on`: what is served, and where from.
final class ServingLineTests: XCTestCase {
    private func mark(entries: Int) -> DataSourceMark {
        TakenIn(chain: [1], checkpoint: .init(shape: .lines, position: .init(offset: 10, line: 2, column: 0), entries: entries),
                bytes: Array(repeating: 0, count: 32)).mark
    }

    func testItSaysWhatTheFeedHoldsAndWhereFrom() {
        XCTAssertEqual(ServingLine.text(state: .demo, count: 50, dataFile: nil, store: "pulldown.sqlite"),
                       "Serving the demo feed (50 items) from pulldown.sqlite")
        XCTAssertEqual(ServingLine.text(state: .filled(mark(entries: 40)), count: 40, dataFile: "blog.json", store: "pulldown.sqlite"),
                       "Serving 40 items from blog.json")
        XCTAssertEqual(ServingLine.text(state: .filled(mark(entries: 1200)), count: 1203, dataFile: "blog.json", store: "x"),
                       "Serving 1,203 items: 1,200 from blog.json, 3 added since")
        XCTAssertEqual(ServingLine.text(state: .filled(mark(entries: 1)), count: 1, dataFile: nil, store: "pulldown.sqlite"),
                       "Serving 1 item from pulldown.sqlite, taken in from a data file")
        XCTAssertEqual(ServingLine.text(state: .otherItems, count: 53, dataFile: nil, store: "a store in memory"),
                       "Serving 53 items from a store in memory")
        XCTAssertEqual(ServingLine.text(state: .empty, count: 0, dataFile: nil, store: "postgres://me:***@db/feed"),
                       "Serving an empty feed from postgres://me:***@db/feed")
    }
}
