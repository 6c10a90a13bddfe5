import XCTest
@testable import PulldownFeed

/// The demo's pictures: the same for the same item, an avatar for every author, an image of
/// varied shape with alt text for at least a fifth of any run of items.
final class DemoPicturesTests: XCTestCase {
    func testEveryDemoItemHasAnAvatarAndAtLeastAFifthAnImageOfVariedShape() throws {
        for count in [1, 2, 5, 9, 15, 100] {
            let drafts = (1...Int64(count)).map { DemoContent.draft(number: $0, createdAt: 0) }
            XCTAssertTrue(drafts.allSatisfy { $0.userFields.contains(#""avatar":"/media/demo/avatar-"#) })
            let withImage = drafts.filter { $0.userFields.contains(#""image":"#) }.count
            XCTAssertGreaterThanOrEqual(withImage * 5, count, "\(count) items")
        }
        let images = (1...200).compactMap { DemoPictures.image(number: $0) }
        XCTAssertGreaterThanOrEqual(Set(images.map { "\($0.width)x\($0.height)" }).count, 5)
        XCTAssertTrue(images.allSatisfy { !$0.alt.isEmpty && $0.foreground != $0.background })
    }

    func testItemNAlwaysGetsTheSamePictures() throws {
        XCTAssertEqual(DemoContent.draft(number: 41, createdAt: 0), DemoContent.draft(number: 41, createdAt: 0))
        XCTAssertEqual(DemoPictures.image(number: 41), DemoPictures.image(number: 41))
        XCTAssertNotEqual(DemoPictures.image(number: 41), DemoPictures.image(number: 51))
        let draft = DemoContent.draft(number: 1, createdAt: 0)
        let image = try XCTUnwrap(DemoPictures.image(number: 1))
        XCTAssertTrue(draft.userFields.contains(#""image":{"url":"/media/demo/image-1.png","width":\#(image.width),"height":\#(image.height),"alt":"\#(image.alt)"}"#),
                      draft.userFields)
    }

    func testOnlyRealAuthorsAndPicturedItemsHavePictures() {
        XCTAssertNil(DemoPictures.avatar(authorIndex: DemoContent.authors.count))
        XCTAssertNil(DemoPictures.image(number: 2))
        XCTAssertNil(DemoPictures.image(number: 0))
        XCTAssertEqual(DemoPictures.avatar(authorIndex: 0)?.initials, "AP")
    }
}
