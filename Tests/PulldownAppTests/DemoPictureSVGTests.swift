import Foundation
import PulldownFeed
import XCTest
@testable import PulldownApp

final class DemoPictureSVGTests: XCTestCase {
    func testAnImageIsDrawnAtItsStatedSizeTheSameEveryTime() throws {
        let image = try XCTUnwrap(DemoPictures.image(number: 4))
        let svg = try XCTUnwrap(DemoPictureSVG.picture(named: "image-4.svg"))
        XCTAssertTrue(svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" width="\#(image.width)" height="\#(image.height)""#), svg)
        XCTAssertTrue(svg.contains("<title>\(image.alt)</title>"))
        XCTAssertTrue(svg.hasSuffix("</svg>"))
        XCTAssertEqual(svg, DemoPictureSVG.picture(named: "image-4.svg"))
    }

    func testOnlyTheNamesOfDemoPicturesAreDrawn() {
        XCTAssertNotNil(DemoPictureSVG.picture(named: "avatar-0.svg"))
        for name in ["image-2.svg", "image-4.png", "avatar-999.svg", "avatar-+1.svg", "image-.svg", "../image-4.svg", "image-4"] {
            XCTAssertNil(DemoPictureSVG.picture(named: name), name)
        }
    }
}
