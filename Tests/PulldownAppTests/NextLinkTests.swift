import Foundation
import PulldownFeed
import XCTest
@testable import PulldownApp

final class NextLinkTests: XCTestCase {
    private let feed = FeedID("0123456789abcdef")!
    private let base = "http://192.168.1.20:8080"

    /// Every link names the feed its cursor came from, absolute, as a native client can use it.
    func testTheNewestPageLinksToTheItemsBeforeItsOldest() {
        let link = API.nextLink(page: testPage([50, 49, 48], hasMore: true), limit: 3, feed: feed, base: base)
        XCTAssertEqual(link, #"<http://192.168.1.20:8080/api/items?limit=3&before=48&feed=0123456789abcdef>; rel="next""#)
    }

    func testABeforePageLinksToTheItemsBeforeItsOldest() {
        let link = API.nextLink(page: testPage([29, 28], hasMore: true), limit: 2, feed: feed, base: base)
        XCTAssertEqual(link, #"<http://192.168.1.20:8080/api/items?limit=2&before=28&feed=0123456789abcdef>; rel="next""#)
    }

    func testAnAfterPageLinksToTheItemsAfterItsNewest() {
        let link = API.nextLink(page: testPage([15, 14, 13], .newer, hasMore: true), limit: 3, feed: feed, base: base)
        XCTAssertEqual(link, #"<http://192.168.1.20:8080/api/items?limit=3&after=15&feed=0123456789abcdef>; rel="next""#)
    }

    func testTheLastPageHasNoLink() {
        XCTAssertNil(API.nextLink(page: testPage([2, 1], hasMore: false), limit: 10, feed: feed, base: base))
        XCTAssertNil(API.nextLink(page: testPage([50], .newer, hasMore: false), limit: 10, feed: feed, base: base))
    }

    func testAnEmptyPageHasNoLinkEvenIfMoreIsClaimed() {
        XCTAssertNil(API.nextLink(page: testPage([], hasMore: true), limit: 10, feed: feed, base: base))
    }
}
