@testable import PulldownHTTP
import XCTest
@testable import PulldownApp

final class ItemsQueryTests: XCTestCase {
    private func parse(_ query: String, defaultLimit: Int = 10) throws(Problem) -> ItemsQuery {
        try ItemsQuery.parse(QueryParameters(parsing: query)!, defaultLimit: defaultLimit)
    }

    /// The names in `invalid_params` of the 400 that `query` gives.
    private func invalidNames(_ query: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        do {
            let parsed = try parse(query)
            XCTFail("expected a 400 for \(query), got \(parsed)", file: file, line: line)
            return []
        } catch {
            XCTAssertEqual(error.status, 400, file: file, line: line)
            return error.invalidParams.map(\.name)
        }
    }

    func testNoParametersIsTheNewestPageWithTheDefaultLimit() throws {
        XCTAssertEqual(try parse(""), ItemsQuery(limit: 10, cursor: .newest))
        XCTAssertEqual(try parse("", defaultLimit: 7), ItemsQuery(limit: 7, cursor: .newest))
    }

    func testLimitBeforeAndAfterAreRead() throws {
        XCTAssertEqual(try parse("limit=1&before=42"), ItemsQuery(limit: 1, cursor: .before(42)))
        XCTAssertEqual(try parse("limit=100&after=0"), ItemsQuery(limit: 100, cursor: .after(0)))
        XCTAssertEqual(try parse("before=9223372036854775807"), ItemsQuery(limit: 10, cursor: .before(Int64.max)))
    }

    func testDemoKnobsAreLeftToTheKnobs() throws {
        XCTAssertEqual(try parse("_delay=abc&_fail=418&limit=3"), ItemsQuery(limit: 3, cursor: .newest))
    }

    func testBadLimitsAreNamed() {
        for value in ["0", "-1", "abc", "101", "1e3", "99999999999999999999", "", "1.0", "+5", "%205"] {
            XCTAssertEqual(invalidNames("limit=\(value)"), ["limit"], value)
        }
    }

    func testBadCursorsAreNamed() {
        for value in ["0", "-1", "abc", "1e3", "99999999999999999999", ""] {
            XCTAssertEqual(invalidNames("before=\(value)"), ["before"], value)
        }
        for value in ["-1", "abc", "1e3", "9223372036854775808", ""] {
            XCTAssertEqual(invalidNames("after=\(value)"), ["after"], value)
        }
    }

    func testAfterWithBeforeIsARange() throws {
        XCTAssertEqual(try parse("after=5&before=10&limit=3"), ItemsQuery(limit: 3, cursor: .between(after: 5, before: 10)))
        XCTAssertEqual(try parse("after=11&before=10"), ItemsQuery(limit: 10, cursor: .between(after: 11, before: 10)), "empty")
    }

    func testAroundIsAnIdAloneAndRefusesTheOtherCursors() throws {
        XCTAssertEqual(try parse("around=42&limit=7"), ItemsQuery(limit: 7, cursor: .around(42)))
        XCTAssertEqual(invalidNames("around=42&before=50"), ["around"])
        XCTAssertEqual(invalidNames("around=42&after=5"), ["around"])
        for value in ["0", "-1", "abc", "9223372036854775808", ""] {
            XCTAssertEqual(invalidNames("around=\(value)"), ["around"], value)
        }
    }

    func testACountIsAskedForInTheQueryOrInPrefer() throws {
        XCTAssertEqual(try parse("count=exact"), ItemsQuery(limit: 10, cursor: .newest, count: true))
        XCTAssertEqual(invalidNames("count=estimated"), ["count"])
        for prefer in ["count=exact", "return=minimal, count=exact", "COUNT=EXACT; strict", " count=exact "] {
            XCTAssertTrue(ItemsQuery.prefersExactCount(prefer), prefer)
        }
        for prefer in ["count=planned", "return=minimal", "", "xcount=exact"] {
            XCTAssertFalse(ItemsQuery.prefersExactCount(prefer), prefer)
        }
        XCTAssertEqual(try ItemsQuery.parse(QueryParameters(parsing: "limit=2")!, prefer: "count=exact", defaultLimit: 10),
                       ItemsQuery(limit: 2, cursor: .newest, count: true))
    }

    func testIssuedIsReadAsUnixSeconds() throws {
        XCTAssertEqual(try parse("before=9&issued=1796000000"), ItemsQuery(limit: 10, cursor: .before(9), issued: 1_796_000_000))
        XCTAssertEqual(invalidNames("before=9&issued=soon"), ["issued"])
    }

    func testARepeatedParameterIsRefused() {
        XCTAssertEqual(invalidNames("limit=5&limit=5"), ["limit"])
        XCTAssertEqual(invalidNames("before=5&before=6"), ["before"])
    }

    func testAnUnknownParameterIsIgnored() throws {
        // Cache-busters clients add (jQuery's `_`, `t`) mean nothing here.
        XCTAssertEqual(try parse("_=1733300000&t=1&limit=3&since=5"), ItemsQuery(limit: 3, cursor: .newest))
    }

    func testEveryProblemIsNamedInOneErrorAndUnknownNamesAreNot() {
        XCTAssertEqual(invalidNames("limit=0&before=x&page=2"), ["limit", "before"])
    }
}
