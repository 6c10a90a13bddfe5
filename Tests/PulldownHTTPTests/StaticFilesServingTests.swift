import Foundation
import XCTest
@testable import PulldownHTTP

final class StaticFilesServingTests: XCTestCase {
    private var folder: URL!
    private var outside: URL!

    override func setUpWithError() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("pulldown-static-\(UUID().uuidString)")
        folder = base.appendingPathComponent("public")
        outside = base.appendingPathComponent("secret")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try write("index.html", "<!doctype html><title>Pulldown</title>" + String(repeating: "<p>row</p>", count: 50))
        try write("app.js", "export const x = 1;\n" + String(repeating: "// comment line\n", count: 40))
        try write("sub/page.css", "body { margin: 0 }\n")
        try write("logo.png", "\u{89}PNG not really")
        try write(".env", "SECRET=1")
        try "TOP SECRET".write(to: outside.appendingPathComponent("passwd"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder.deletingLastPathComponent())
    }

    private func write(_ relative: String, _ text: String) throws {
        try text.write(to: folder.appendingPathComponent(relative), atomically: false, encoding: .utf8)
    }

    private func get(_ files: StaticFiles, _ target: String, headers: [(String, String)] = [], method: String = "GET") -> HTTPResponse {
        files.respond(to: HTTPRequest(method: method, rawTarget: target, headers: HTTPHeaders(headers))!)
    }

    func testMissingFolderIsALoadError() {
        XCTAssertThrowsError(try StaticFiles(root: folder.appendingPathComponent("nope").path))
        XCTAssertThrowsError(try StaticFiles(root: folder.appendingPathComponent("index.html").path), "a file is not a folder")
    }

    func testServesFilesWithTypeETagAndLength() throws {
        let files = try StaticFiles(root: folder.path)
        let response = get(files, "/sub/page.css")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["Content-Type"], "text/css; charset=utf-8")
        XCTAssertEqual(response.headers["ETag"], EntityTag.strong(for: Array("body { margin: 0 }\n".utf8)))
        XCTAssertEqual(response.body.count, 19)
        XCTAssertNil(response.headers["Content-Encoding"])
    }

    func testContentTypesByExtension() throws {
        let files = try StaticFiles(root: folder.path)
        XCTAssertEqual(get(files, "/").headers["Content-Type"], "text/html; charset=utf-8")
        XCTAssertEqual(get(files, "/app.js").headers["Content-Type"], "text/javascript; charset=utf-8")
        XCTAssertEqual(get(files, "/logo.png").headers["Content-Type"], "image/png")
    }

    func testRootAndTrailingSlashServeIndexHtml() throws {
        let files = try StaticFiles(root: folder.path)
        XCTAssertEqual(get(files, "/").status, 200)
        XCTAssertEqual(get(files, "/").headers["ETag"], get(files, "/index.html").headers["ETag"])
        XCTAssertEqual(get(files, "/sub/").status, 404, "no index.html in sub")
    }

    func testHiddenFilesAreNotServedOrListed() throws {
        let files = try StaticFiles(root: folder.path)
        XCTAssertEqual(get(files, "/.env").status, 404)
        XCTAssertFalse(files.paths.contains(".env"))
        XCTAssertEqual(files.paths, ["app.js", "index.html", "logo.png", "sub/page.css"])
    }

    func testTraversalTargetsAreNotFound() throws {
        let files = try StaticFiles(root: folder.path)
        for target in ["/../secret/passwd", "/%2e%2e/secret/passwd", "/..%2fsecret%2fpasswd", "/sub/../index.html",
                       "/..\\secret\\passwd", "//index.html", "/%2findex.html", "/./index.html"] {
            XCTAssertEqual(get(files, target).status, 404, target)
        }
    }

    func testSymlinkLeadingOutsideTheFolderIsNotServed() throws {
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("leak.txt").path,
                                                   withDestinationPath: outside.appendingPathComponent("passwd").path)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("outdir").path,
                                                   withDestinationPath: outside.path)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("relative.txt").path,
                                                   withDestinationPath: "../secret/passwd")
        let files = try StaticFiles(root: folder.path)
        XCTAssertEqual(get(files, "/leak.txt").status, 404)
        XCTAssertEqual(get(files, "/outdir/passwd").status, 404)
        XCTAssertEqual(get(files, "/relative.txt").status, 404)
        XCTAssertFalse(files.paths.contains { $0.contains("leak") || $0.contains("outdir") || $0.contains("relative") })
    }

    func testSymlinkInsideTheFolderIsServed() throws {
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("alias.css").path,
                                                   withDestinationPath: "sub/page.css")
        let files = try StaticFiles(root: folder.path)
        let response = get(files, "/alias.css")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["ETag"], get(files, "/sub/page.css").headers["ETag"])
    }

    func testRootGivenThroughASymlinkStillServes() throws {
        let link = folder.deletingLastPathComponent().appendingPathComponent("public-link")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: folder.path)
        let files = try StaticFiles(root: link.path)
        XCTAssertEqual(get(files, "/app.js").status, 200)
    }

    func testMatchingIfNoneMatchGives304WithTheSameETag() throws {
        let files = try StaticFiles(root: folder.path)
        let etag = try XCTUnwrap(get(files, "/app.js").headers["ETag"])
        let response = get(files, "/app.js", headers: [("If-None-Match", etag)])
        XCTAssertEqual(response.status, 304)
        XCTAssertEqual(response.headers["ETag"], etag)
        // The 304 keeps the full body only so that Content-Length states the full size.
        XCTAssertEqual(response.body.count, get(files, "/app.js").body.count)
        XCTAssertEqual(get(files, "/app.js", headers: [("If-None-Match", "\"stale\"")]).status, 200)
    }

    func testGzipVariantForClientsThatAcceptIt() throws {
        let files = try StaticFiles(root: folder.path)
        let plain = get(files, "/index.html")
        let zipped = get(files, "/index.html", headers: [("Accept-Encoding", "gzip, deflate")])
        XCTAssertEqual(zipped.status, 200)
        XCTAssertEqual(zipped.headers["Content-Encoding"], "gzip")
        XCTAssertEqual(zipped.headers["Vary"], "Accept-Encoding")
        XCTAssertEqual(plain.headers["Vary"], "Accept-Encoding")
        XCTAssertLessThan(zipped.body.count, plain.body.count)
        XCTAssertNotEqual(zipped.headers["ETag"], plain.headers["ETag"], "each encoding has its own tag")
        // The gzip tag revalidates the gzip variant.
        let revalidated = get(files, "/index.html", headers: [("Accept-Encoding", "gzip"), ("If-None-Match", zipped.headers["ETag"]!)])
        XCTAssertEqual(revalidated.status, 304)
        XCTAssertEqual(revalidated.headers["Content-Encoding"], "gzip")
    }

    func testNoGzipWithoutTheHeaderOrForBinaryFiles() throws {
        let files = try StaticFiles(root: folder.path)
        XCTAssertNil(get(files, "/index.html").headers["Content-Encoding"])
        XCTAssertNil(get(files, "/index.html", headers: [("Accept-Encoding", "gzip;q=0")]).headers["Content-Encoding"])
        XCTAssertNil(get(files, "/logo.png", headers: [("Accept-Encoding", "gzip")]).headers["Content-Encoding"])
    }

    func testHeadIsServedAndOtherMethodsGet405() throws {
        let files = try StaticFiles(root: folder.path)
        XCTAssertEqual(get(files, "/app.js", method: "HEAD").status, 200)
        let post = get(files, "/app.js", method: "POST")
        XCTAssertEqual(post.status, 405)
        XCTAssertEqual(post.headers["Allow"], "GET, HEAD")
        XCTAssertEqual(get(files, "/missing.js", method: "POST").status, 404)
    }

    func testReloadPicksUpAnEditOfTheSameSize() throws {
        let files = try StaticFiles(root: folder.path)
        let before = get(files, "/sub/page.css").headers["ETag"]
        try write("sub/page.css", "body { margin: 1 }\n")
        files.reloadIfChanged()
        let after = get(files, "/sub/page.css").headers["ETag"]
        XCTAssertNotEqual(before, after)
        XCTAssertEqual(after, EntityTag.strong(for: Array("body { margin: 1 }\n".utf8)))
    }

    func testReloadPicksUpAddedAndRemovedFiles() throws {
        let files = try StaticFiles(root: folder.path)
        XCTAssertEqual(get(files, "/new.css").status, 404)
        try write("new.css", "p{}")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("app.js"))
        files.reloadIfChanged()
        XCTAssertEqual(get(files, "/new.css").status, 200)
        XCTAssertEqual(get(files, "/app.js").status, 404)
    }

    func testReloadWithoutChangesKeepsTheSameResponses() throws {
        let files = try StaticFiles(root: folder.path)
        let before = try XCTUnwrap(get(files, "/app.js").prepared)
        files.reloadIfChanged()
        let after = try XCTUnwrap(get(files, "/app.js").prepared)
        XCTAssertTrue(before === after, "an unchanged file is not read again")
    }

    func testTheGenerationMovesOnlyWhenAReloadFindsAChange() throws {
        let files = try StaticFiles(root: folder.path)
        let start = files.generation
        files.reloadIfChanged()
        XCTAssertEqual(files.generation, start, "nothing changed")
        try write("sub/page.css", "body { margin: 2 }\n")
        files.reloadIfChanged()
        XCTAssertEqual(files.generation, start + 1, "an edit")
        try write("added.css", "p{}")
        files.reloadIfChanged()
        XCTAssertEqual(files.generation, start + 2, "an added file")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("added.css"))
        files.reloadIfChanged()
        XCTAssertEqual(files.generation, start + 3, "a removed file")
    }
}
