import Foundation
import PulldownFeed
import XCTest
@testable import PulldownApp

final class DemoPictureDrawingTests: XCTestCase {
    func testAnImageIsAPNGOfItsStatedSizeTheSameEveryTime() throws {
        let image = try XCTUnwrap(DemoPictures.image(number: 4))
        let picture = try XCTUnwrap(DemoPictureDrawing.picture(named: "image-4.png"))
        XCTAssertEqual(picture.contentType, "image/png")
        let png = try XCTUnwrap(picture.body)
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
        XCTAssertEqual(String(decoding: png[12..<16], as: UTF8.self), "IHDR")
        let size = { (at: Int) in png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        XCTAssertEqual([size(16), size(20)], [image.width, image.height])
        XCTAssertEqual(png, DemoPictureDrawing.picture(named: "image-4.png")?.body)
        XCTAssertNotEqual(png, DemoPictureDrawing.picture(named: "image-14.png")?.body, "each item its own picture")
    }

    func testAnAvatarIsSVGWithTheAuthorsInitials() throws {
        let avatar = try XCTUnwrap(DemoPictures.avatar(authorIndex: 0))
        let picture = try XCTUnwrap(DemoPictureDrawing.picture(named: "avatar-0.svg"))
        XCTAssertEqual(picture.contentType, "image/svg+xml")
        let svg = String(decoding: try XCTUnwrap(picture.body), as: UTF8.self)
        XCTAssertTrue(svg.hasPrefix("<svg ") && svg.hasSuffix("</svg>"), svg)
        XCTAssertTrue(svg.contains(">\(avatar.initials)</text>"), svg)
    }

    func testShapesAreBlendedAtTheirOpacityAndACirclesEdgeIsAntialiased() {
        let canvas = PNGCanvas(width: 40, height: 20, background: "#ffffff")
        canvas.rectangle(x: 0, y: 0, width: 10, height: 20, colour: "#000000", opacity: 0.5)
        canvas.circle(x: 30, y: 10, radius: 6, colour: "#ff0000")
        XCTAssertEqual(canvas.pixel(x: 5, y: 5), [128, 128, 128], "half black over white")
        XCTAssertEqual(canvas.pixel(x: 10, y: 5), [255, 255, 255], "the rectangle ends at its width")
        XCTAssertEqual(canvas.pixel(x: 30, y: 10), [255, 0, 0], "inside the disc")
        XCTAssertEqual(canvas.pixel(x: 37, y: 10), [255, 255, 255], "outside it")
        let edge = canvas.pixel(x: 35, y: 7) // its centre 5.9 px from the disc's: partly covered
        XCTAssertEqual(edge[0], 255)
        XCTAssertTrue((1...254).contains(edge[1]) && edge[1] == edge[2], "\(edge)")
    }

    func testOnlyTheNamesOfDemoPicturesAreDrawn() {
        for name in ["image-2.png", "image-4.svg", "avatar-0.png", "avatar-999.svg", "avatar-+1.svg", "image-.png",
                     "../image-4.png", "image-4", "avatar-.svg", ".png"] {
            XCTAssertNil(DemoPictureDrawing.picture(named: name), name)
        }
    }
}
