import Foundation
import PulldownFeed
import XCTest
@testable import PulldownApp

final class NextLinkTests: XCTestCase {
    private func page(_ ids: [Int64], hasMore: Bool) -> ItemPage {
        ItemPage(items: ids.map { Item(id: $0, title: "t\($0)", body: "", author: "a", createdAt: Date(timeIntervalSince1970: 0)) },
                 hasMore: hasMore)
    }

    func testTheNewestPageLinksToTheItemsBeforeItsOldest() {
        let link = API.nextLink(page: page([50, 49, 48], hasMore: true), query: ItemsQuery(limit: 3, cursor: .newest))
        XCTAssertEqual(link, #"</api/items?limit=3&before=48>; rel="next""#)
    }

    func testABeforePageLinksToTheItemsBeforeItsOldest() {
        let link = API.nextLink(page: page([29, 28], hasMore: true), query: ItemsQuery(limit: 2, cursor: .before(30)))
        XCTAssertEqual(link, #"</api/items?limit=2&before=28>; rel="next""#)
    }

    func testAnAfterPageLinksToTheItemsAfterItsNewest() {
        let link = API.nextLink(page: page([15, 14, 13], hasMore: true), query: ItemsQuery(limit: 3, cursor: .after(12)))
        XCTAssertEqual(link, #"</api/items?limit=3&after=15>; rel="next""#)
    }

    func testTheLastPageHasNoLink() {
        XCTAssertNil(API.nextLink(page: page([2, 1], hasMore: false), query: ItemsQuery(limit: 10, cursor: .newest)))
        XCTAssertNil(API.nextLink(page: page([50], hasMore: false), query: ItemsQuery(limit: 10, cursor: .after(49))))
    }

    func testAnEmptyPageHasNoLinkEvenIfMoreIsClaimed() {
        XCTAssertNil(API.nextLink(page: page([], hasMore: true), query: ItemsQuery(limit: 10, cursor: .before(5))))
    }
}
