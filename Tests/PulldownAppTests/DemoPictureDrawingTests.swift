import Foundation
import Hashing
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

    func testAnAvatarIsAPNGOfTheAuthorsInitialsInWhiteOnTheirColour() throws {
        let avatar = try XCTUnwrap(DemoPictures.avatar(authorIndex: 0))
        XCTAssertEqual(avatar.initials, "AP")
        let picture = try XCTUnwrap(DemoPictureDrawing.picture(named: "avatar-0.png"))
        XCTAssertEqual(picture.contentType, "image/png")
        let png = try XCTUnwrap(picture.body)
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
        let size = { (at: Int) in png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        XCTAssertEqual([size(16), size(20)], [96, 96])
        XCTAssertEqual(png, DemoPictureDrawing.picture(named: "avatar-0.png")?.body)
        XCTAssertNotEqual(png, DemoPictureDrawing.picture(named: "avatar-1.png")?.body, "each author their own")
    }

    func testEveryAuthorsInitialsHaveLettersToDrawThem() {
        var index = 0
        while let avatar = DemoPictures.avatar(authorIndex: index) {
            XCTAssertEqual(avatar.initials.count, 2, "author \(index)")
            XCTAssertTrue(avatar.initials.allSatisfy { StrokeFont.glyph($0) != nil }, avatar.initials)
            index += 1
        }
        XCTAssertGreaterThan(index, 20)
    }

    func testLettersAreWhiteStrokesOnTheAvatarsColour() {
        // An L: a stem down the left and a foot along the bottom, 4.5 pixels wide.
        let canvas = PNGCanvas(width: 40, height: 40, background: "#000000")
        let glyph = StrokeFont.glyph("L")!
        canvas.strokes(glyph.strokes.map { $0.map { (5 + $0.x * 3, 5 + $0.y * 3) } }, lineWidth: 4.5, colour: "#ffffff")
        XCTAssertEqual(canvas.pixel(x: 5, y: 20), [255, 255, 255], "on the stem")
        XCTAssertEqual(canvas.pixel(x: 15, y: 35), [255, 255, 255], "on the foot")
        XCTAssertEqual(canvas.pixel(x: 15, y: 20), [0, 0, 0], "inside the corner: nothing")
        let edge = canvas.pixel(x: 7, y: 20)[0] // its centre 2.5 px from the stem's: partly covered
        XCTAssertTrue((1...254).contains(edge), "\(edge)")
    }

    func testAnSVGAvatarsOldNameMovesToItsPNG() {
        XCTAssertEqual(DemoPictureDrawing.movedPicture(named: "avatar-3.svg"), "avatar-3.png")
        for name in ["avatar-999.svg", "avatar-3.png", "image-4.svg", "avatar-.svg", "avatar-+1.svg"] {
            XCTAssertNil(DemoPictureDrawing.movedPicture(named: name), name)
        }
    }

    func testTheIconIsASmallPNG() throws {
        let icon = try XCTUnwrap(DemoPictureDrawing.favicon)
        XCTAssertEqual(Array(icon.prefix(4)), [0x89, 0x50, 0x4e, 0x47])
        XCTAssertLessThan(icon.count, 2048)
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
        for name in ["image-2.png", "image-4.svg", "avatar-0.svg", "avatar-999.png", "avatar-+1.png", "image-.png",
                     "../image-4.png", "image-4", "avatar-.png", ".png"] {
            XCTAssertNil(DemoPictureDrawing.picture(named: name), name)
        }
    }
}

/// A demo picture's URL is promised `immutable`: the bytes under a name may never change, in this
/// program or the next, on this machine or another (a change of Debian's zlib would show here).
/// A picture drawn differently needs a new name (`DemoPictures.routePrefix` or its file name);
/// an old name may stop answering (404), never answer other bytes. Then pin the new names here.
final class DemoPictureNamesTests: XCTestCase {
    /// The first 16 hex digits of each picture's SHA-256.
    static let pinned: [String: String] = [
        "avatar-0.svg": "ed0769be9e430fc0", "avatar-1.svg": "ac07973502ecf009", "avatar-2.svg": "440ba738f0fef42e",
        "avatar-3.svg": "f711489651bfc9a6", "avatar-4.svg": "f05f3ae1ea723cb4", "avatar-5.svg": "7dafef40c9ef8f2d",
        "avatar-6.svg": "b610431c358ce43e", "avatar-7.svg": "c021ed126999fefb", "avatar-8.svg": "ca56713f8bad2360",
        "avatar-9.svg": "2574df6e743e5a38", "avatar-10.svg": "6ee7713d08ec06cb", "avatar-11.svg": "590874bbc54672d5",
        "avatar-12.svg": "d040c8bb4caeb4d8", "avatar-13.svg": "ca3f023ac8274ce9", "avatar-14.svg": "2b2a08ff34ad2eed",
        "avatar-15.svg": "96fc6b8a900b6c40", "avatar-16.svg": "8f5da9f9580cc533", "avatar-17.svg": "afec292ec5ca1e64",
        "avatar-18.svg": "7786a36140c4eb9d", "avatar-19.svg": "c1509cb6887ec276", "avatar-20.svg": "2647c7bc1c06e059",
        "avatar-21.svg": "478de602da2a62cc", "avatar-22.svg": "cf46eef6ba896f12", "avatar-23.svg": "d584bbe03fd34440",
        "avatar-24.svg": "7d8e8f6e85e908e8", "avatar-25.svg": "32a48507ba62dec6", "avatar-26.svg": "32cbfdca3cfdd726",
        "avatar-27.svg": "38470e36f76d3093", "avatar-28.svg": "2dbd0a2cd8816756", "avatar-29.svg": "10cb55aca0c2dc66",
        "avatar-30.svg": "dcaeab6774486596", "avatar-31.svg": "2c0df8853939d062", "image-1.png": "7b1f3e1ce6765c8a",
        "image-4.png": "f5e70c13115e3ae1", "image-7.png": "c1bbe510d7672246", "image-11.png": "23c0529e095fcad8",
        "image-14.png": "ced8b192acf8609f", "image-17.png": "986964ec59953544", "image-21.png": "de0a379945d13ddb",
        "image-24.png": "6a3aa6822efd5ea9", "image-27.png": "fd8ef7e7ee556a1f", "image-101.png": "2b523a3d41f50f3b",
        "image-1004.png": "3840fb2222b5b5af", "image-123457.png": "c3ea56b0767a5d88",
        // Avatars as PNG; the SVG names above answer 301 to these.
        "avatar-0.png": "2db5ad568d08b61e", "avatar-1.png": "dfef822a9b099e90", "avatar-2.png": "9e1c678b461dadd1",
        "avatar-3.png": "25357685b6ead598", "avatar-4.png": "848126723fd4d74a", "avatar-5.png": "0e52b0a7bb003ca6",
        "avatar-6.png": "6ee52088b7218898", "avatar-7.png": "f96086ed5ce40011", "avatar-8.png": "4dcf58c5d8eb3c21",
        "avatar-9.png": "b93b6843ed52e528", "avatar-10.png": "0ccf33ef35b699e0", "avatar-11.png": "38a00b4898152e69",
        "avatar-12.png": "5a8b102cd656c62e", "avatar-13.png": "c06bba40e8fc0821", "avatar-14.png": "f64932b1570ecac4",
        "avatar-15.png": "a3ec5e34cf54218f", "avatar-16.png": "597f788ad3ed6a15", "avatar-17.png": "0384b0935e8cdccf",
        "avatar-18.png": "a3a5cf86af482543", "avatar-19.png": "b6ed5e7740bfcce7", "avatar-20.png": "ebe2a2bd8486ff77",
        "avatar-21.png": "a57c55bcd8f5bda2", "avatar-22.png": "d861d0d3384cebe7", "avatar-23.png": "3d1f5484d9105d9a",
        "avatar-24.png": "dc0190d1dec9b434", "avatar-25.png": "c650f2781d092c5a", "avatar-26.png": "16082d5222b5f957",
        "avatar-27.png": "53fe8ecd193a101a", "avatar-28.png": "94279478bef85b7d", "avatar-29.png": "81b8be48f958ce67",
        "avatar-30.png": "36be437cdf21120c", "avatar-31.png": "4246ed94abba32db",
    ]

    func testEveryPinnedNameAnswersItsBytesOrNothing() throws {
        var drawn: [String: String] = [:]
        let names = (0..<40).flatMap { ["avatar-\($0).svg", "avatar-\($0).png"] }
            + [1, 4, 7, 11, 14, 17, 21, 24, 27, 101, 1_004, 123_457].map { "image-\($0).png" }
        for name in names {
            guard let picture = DemoPictureDrawing.picture(named: name), let body = picture.body else { continue }
            drawn[name] = String(ContentHash.digest(of: body).map { String(format: "%02x", $0) }.joined().prefix(16))
        }
        for (name, digest) in Self.pinned {
            XCTAssertTrue(drawn[name] == nil || drawn[name] == digest, "\(name) answers other bytes under its name")
        }
        XCTAssertGreaterThanOrEqual(Self.pinned.count, 40)
        let served = Self.pinned.keys.filter { $0.hasSuffix(".png") }
        XCTAssertEqual(served.filter { drawn[$0] == nil }, [], "every picture the demo's items name is drawn")
    }
}
