import Foundation
import PulldownFeed

/// Items with only their ids mattering, newest first, as the feed returns them.
func testItems(_ ids: [Int64]) -> [Item] {
    ids.map { Item(id: $0, title: "Item \($0)", body: "", author: "t", createdAt: Date(timeIntervalSince1970: 0)) }
}

/// The items of `ids` (any order; kept newest first) as a batch of new items.
func testItems(_ ids: ClosedRange<Int64>) -> [Item] {
    testItems(ids.reversed())
}

/// A page of `ids`, read on `direction`'s side of its cursor.
func testPage(_ ids: [Int64], _ direction: ItemPage.Direction = .older, hasMore: Bool) -> ItemPage {
    ItemPage(items: testItems(ids), direction: direction, hasMore: hasMore)
}
